import { defineConfig } from "vitest/config";
import { reporters } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    include: [],
    reporters,
    typecheck: { enabled: true, only: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
