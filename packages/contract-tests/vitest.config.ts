import { defineConfig } from "vitest/config";
import { reporters } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server process per database; the files share nothing, but 2 cores are plenty busy.
    fileParallelism: false,
  },
});
