/**
 * Why a database call failed when the failure is the database's state, not the request: the
 * answer is then 503 TEMPORARILY_UNAVAILABLE with Retry-After, and the log says which of these it
 * was. Anything else (a constraint, a bad value, a bug) is not a DatabaseProblem.
 */
export type DatabaseProblemKind =
  /** PostgreSQL ended a statement at statement_timeout (a lock wait, or a statement too slow). */
  | "statement timeout"
  /** No pooled connection was free (or could be made) within the acquire timeout: the pool is busy. */
  | "pool-acquire timeout"
  /** A statement got no answer at all within the statement timeout plus a margin: a frozen server or a silent network. */
  | "no answer"
  /** The server cannot be reached or is starting, stopping, restarting, or refusing connections. */
  | "unreachable";

export interface DatabaseProblem {
  kind: DatabaseProblemKind;
  /** For the client: no internals. */
  message: string;
}

const MESSAGES: Record<DatabaseProblemKind, string> = {
  "statement timeout": "The database did not finish in time (statement timeout); retry later",
  "pool-acquire timeout": "The server is busy: no database connection was free in time; retry later",
  "no answer": "The database did not answer in time; retry later",
  unreachable: "The database is unavailable; retry later",
};

// SQLSTATEs that mean "not reachable right now": 57P01-57P03 (server shutting down / starting
// up), 08xxx (connection failures), 53300 (too many connections).
const UNREACHABLE_SQLSTATES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);
/** query_canceled: by statement_timeout, or pg_cancel_backend. */
const QUERY_CANCELED = "57014";
const UNREACHABLE_NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
// `connect ENOENT <socket>`: the embedded server's unix socket is gone while it restarts.
const UNREACHABLE_MESSAGE =
  /Connection terminated|connect (ECONNREFUSED|ENOENT)|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)/i;
/**
 * pg's error when query_timeout passed (db/connect.ts). Alone when the statement went straight to
 * pg (store/prepared.ts); knex prefixes the statement's SQL and " - " to the message of an error
 * from a statement it ran.
 */
const NO_ANSWER_MESSAGE = /(?:^| - )Query read timeout$/;

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  errors?: unknown[];
}

function kindOf(err: ErrorLike): DatabaseProblemKind | undefined {
  if (err.code === QUERY_CANCELED) return "statement timeout";
  if (err.name === "KnexTimeoutError") {
    // The pool says why it timed out when a connection attempt failed meanwhile: then the
    // database is unreachable, not the pool busy.
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? "";
    return UNREACHABLE_MESSAGE.test(cause) ? "unreachable" : "pool-acquire timeout";
  }
  if (NO_ANSWER_MESSAGE.test(err.message ?? "")) return "no answer";
  if (err.code && (UNREACHABLE_SQLSTATES.has(err.code) || UNREACHABLE_NODE_CODES.has(err.code))) return "unreachable";
  // Node's happy-eyeballs connect reports an AggregateError of the per-address failures.
  if (
    err.name === "AggregateError" &&
    Array.isArray(err.errors) &&
    err.errors.some((e) => e !== null && typeof e === "object" && kindOf(e as ErrorLike) === "unreachable")
  )
    return "unreachable";
  return UNREACHABLE_MESSAGE.test(err.message ?? "") ? "unreachable" : undefined;
}

/** The database problem behind `err`, or undefined when `err` is something else. */
export function databaseProblemOf(err: unknown): DatabaseProblem | undefined {
  if (err === null || typeof err !== "object") return undefined;
  const kind = kindOf(err as ErrorLike);
  return kind && { kind, message: MESSAGES[kind] };
}
