import { defineConfig } from "vitest/config";
import { serverTests } from "../../vitest.shared.ts";

export default defineConfig({ test: serverTests });
