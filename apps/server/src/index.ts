export { startServer, openDatabase, type RunningServer } from "./server.js";
export { loadConfig, type TrackerConfig } from "./config/config.js";
export { createLogger, type Logger } from "./logging/logger.js";
export { connectDatabase, migrateLatest, type Database } from "./db/connect.js";
export { STATUS_OF_CODE } from "./http/error-body.js";
export type { ErrorCode } from "./core/errors.js";
export { specPath, type Revision } from "./http/revisions.js";
