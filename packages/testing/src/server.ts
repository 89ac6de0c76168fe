/**
 * The server under test, reached by its place in the workspace rather than as a package
 * dependency: the server's own tests depend on @tracker/testing, so a dependency back would be a
 * cycle (pnpm warns about it, turbo refuses it). Packages that use @tracker/testing depend on
 * @tracker/server themselves, which also makes turbo build the server before their tests.
 */
import { fileURLToPath } from "node:url";

export {
  connectDatabase,
  createLogger,
  loadConfig,
  migrateLatest,
  specPath,
  startServer,
  STATUS_OF_CODE,
  type ErrorCode,
  type RunningServer,
  type TrackerConfig,
} from "../../../apps/server/src/index.js";

/** apps/server, the server package's folder. */
export const SERVER_DIR = fileURLToPath(new URL("../../../apps/server", import.meta.url));
