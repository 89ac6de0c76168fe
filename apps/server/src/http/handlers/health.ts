import { TrackerError } from "../../core/errors.js";
import { databaseProblemOf } from "../../db/database-problems.js";
import { handlerTable, type UntypedContext } from "../operation-handler.js";

/**
 * Health probes (spec/ext.yaml): liveness answers while the process serves HTTP, without touching
 * the database; readiness (and /health, as before) asks the database, and answers within
 * `readinessTimeoutMs` whatever the database does (frozen, locked, its pool full): 503 when it has
 * not answered by then, and 503 while the server shuts down (after SIGTERM). Open without a token (security.ts OPEN_PATHS); 503 answers carry
 * Retry-After (error-handler.ts).
 */

const NO_ANSWER = Symbol("no answer");

const readiness = async ({ services, req }: Pick<UntypedContext, "services" | "req">) => {
  // A server shutting down tells its load balancer to send nothing more, whatever the database says.
  if (services.lifecycle?.draining) throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The server is shutting down");
  const limit = services.config.readinessTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const probe = services.knex.raw("select 1").then(() => undefined);
  // The probe may fail after the answer was sent: that is no unhandled rejection.
  probe.catch(() => undefined);
  const deadline = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), limit);
  });
  let outcome: typeof NO_ANSWER | undefined;
  try {
    outcome = await Promise.race([probe, deadline]);
  } catch (err) {
    const problem = databaseProblemOf(err);
    if (problem && problem.kind !== "unreachable")
      req.log?.warn({ databaseProblem: problem.kind }, `readiness: database ${problem.kind}`);
    throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The database is unavailable");
  } finally {
    clearTimeout(timer);
  }
  if (outcome === NO_ANSWER) {
    req.log?.warn({ databaseProblem: "no answer", timeoutMs: limit }, "readiness: the database did not answer in time");
    throw new TrackerError("TEMPORARILY_UNAVAILABLE", `The database did not answer within ${limit} ms`);
  }
  return { status: "ok" as const, database: services.databaseKind };
};

export const healthHandlers = handlerTable({
  getLiveness: async () => ({ status: "ok" }),
  getReadiness: readiness,
  // /health keeps its meaning: the server and its database.
  getHealth: readiness,
});
