import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import { reporters } from "../../vitest.shared.ts";

const require = createRequire(import.meta.url);

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters,
    // Builds the migrated PGlite template that startTestServer() copies for each test server.
    globalSetup: [require.resolve("@tracker/server/testing/global-setup")],
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
  },
});
