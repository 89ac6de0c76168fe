import { TrackerError } from "../../core/errors.js";
import type { HandlerTable, OperationHandler } from "../operation-handler.js";

/**
 * Health probes (spec/ext.yaml): liveness answers while the process serves HTTP, without touching
 * the database; readiness (and /health, as before) asks the database. Open without a token
 * (security.ts OPEN_PATHS); 503 answers carry Retry-After (error-handler.ts).
 */

const readiness: OperationHandler = async ({ services }) => {
  try {
    await services.knex.raw("select 1");
  } catch {
    throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The database is unavailable");
  }
  return { status: "ok", database: services.databaseKind };
};

export const healthHandlers: HandlerTable = {
  getLiveness: async () => ({ status: "ok" }),
  getReadiness: readiness,
  // /health keeps its meaning: the server and its database.
  getHealth: readiness,
};
