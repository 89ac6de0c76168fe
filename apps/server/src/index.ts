export { startServer, openDatabase, type RunningServer } from "./server.js";
export { loadConfig, type TrackerConfig } from "./config/config.js";
