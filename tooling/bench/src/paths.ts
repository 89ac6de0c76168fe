import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_ROOT = path.resolve(here, "..", "..", "..");
/** The built server CLI (`pnpm --filter @tracker/server build`); TRACKER_BENCH_SERVER_CLI points elsewhere (e.g. an older build, to compare). */
export const SERVER_CLI =
  process.env.TRACKER_BENCH_SERVER_CLI || path.join(REPO_ROOT, "apps", "server", "dist", "cli.js");
export const STARTUP_BENCH = path.join(REPO_ROOT, "apps", "server", "scripts", "startup-bench.mjs");
export const DOCS_DIR = path.join(REPO_ROOT, "docs");
/** The calibration scenario's bare Express server. */
export const CALIBRATION_SERVER = path.join(here, "calibration-server.mjs");
/** The database calibration scenario's Express server (one pg INSERT a request). */
export const CALIBRATION_DB_SERVER = path.join(here, "calibration-db-server.mjs");
/** Revision C's OpenAPI document as the server loads it (built by @tracker/spec). */
export const REV_C_DOCUMENT = path.join(REPO_ROOT, "spec", "dist", "rev-c.json");
