import { defineConfig } from "vitest/config";
import { reporters } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The harness test starts PostgreSQL and servers and loads the machine: nothing beside it.
    fileParallelism: false,
  },
});
