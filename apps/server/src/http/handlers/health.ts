import { TrackerError } from "../../core/errors.js";
import { handlerTable, type UntypedContext } from "../operation-handler.js";

/**
 * Health probes (spec/ext.yaml): liveness answers while the process serves HTTP, without touching
 * the database; readiness (and /health, as before) asks the database. Open without a token
 * (security.ts OPEN_PATHS); 503 answers carry Retry-After (error-handler.ts).
 */

const readiness = async ({ services }: Pick<UntypedContext, "services">) => {
  try {
    await services.knex.raw("select 1");
  } catch {
    throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The database is unavailable");
  }
  return { status: "ok" as const, database: services.databaseKind };
};

export const healthHandlers = handlerTable({
  getLiveness: async () => ({ status: "ok" }),
  getReadiness: readiness,
  // /health keeps its meaning: the server and its database.
  getHealth: readiness,
});
