import type { ViteUserConfig } from "vitest/config";

/** Reporters every package uses: the console, and JSON for the CI summary (scripts/test-summary.mjs). */
export const reporters: NonNullable<ViteUserConfig["test"]>["reporters"] = [
  "default",
  ["json", { outputFile: "test-results/vitest.json" }],
];
