import { defineConfig } from "vitest/config";
import { reporters } from "../vitest.shared.ts";

export default defineConfig({ test: { include: ["test/**/*.test.ts"], testTimeout: 60_000, reporters } });
