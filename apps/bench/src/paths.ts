import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_ROOT = path.resolve(here, "..", "..", "..");
export const STARTUP_BENCH = path.join(REPO_ROOT, "apps", "server", "scripts", "startup-bench.mjs");
export const DOCS_DIR = path.join(REPO_ROOT, "docs");
