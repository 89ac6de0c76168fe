import { defineConfig } from "vitest/config";
import { serverTests } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    ...serverTests,
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
