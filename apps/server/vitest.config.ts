import { defineConfig } from "vitest/config";
import { reporters } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters,
    globalSetup: ["./src/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are memory hungry; keep parallelism modest on 2 cores.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
