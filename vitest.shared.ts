import type { ViteUserConfig } from "vitest/config";

/** Reporters every package uses: the console, and JSON for the CI summary (scripts/test-summary.mjs). */
export const reporters: NonNullable<ViteUserConfig["test"]>["reporters"] = [
  "default",
  ["json", { outputFile: "test-results/vitest.json" }],
];

/**
 * Test settings of every package whose tests start servers over a database (@tracker/testing):
 * the PGlite template made once per run, generous timeouts, two files at a time on 2 cores.
 */
export const serverTests = {
  include: ["src/**/*.test.ts"],
  reporters,
  globalSetup: ["@tracker/testing/global-setup"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // PGlite instances are memory hungry; keep parallelism modest on 2 cores.
  maxWorkers: 2,
} satisfies NonNullable<ViteUserConfig["test"]>;
