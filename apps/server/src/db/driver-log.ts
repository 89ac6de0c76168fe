import type { Knex } from "knex";
import type { Logger } from "../logging/logger.js";

/**
 * The database driver's messages, through the server's logger. Knex prints its warnings with
 * console.log by default, and while PostgreSQL is down every failed connection attempt prints
 * `Acquire connection error` with a stack trace (about one per request). Here an outage is one
 * warning when the first attempt fails and one when a connection succeeds again; the attempts in
 * between are at debug level, like the driver's other chatter.
 */
export interface DriverLog {
  /** Knex's `log` option. */
  log: NonNullable<Knex.Config["log"]>;
  /** To call when a new connection to the database was made (pool `afterCreate`). */
  connected(): void;
}

const CONNECTION_FAILURE = /^(Acquire connection error|Connection Error)/;
/**
 * The pool's own timeout with no failed connection attempt behind it: every connection was busy
 * (a lock wait, a slow database). Not an outage; the request's answer says it (error-handler.ts).
 */
const POOL_BUSY = /^(TimeoutError: )?operation timed out for an unknown reason$|^TimeoutError$/;

const firstLine = (message: unknown): string =>
  String(message instanceof Error ? message.message : message)
    .split("\n")[0]
    .trim();

/** The cause in an `Acquire connection error: Error: connect ECONNREFUSED ...` message. */
const causeOf = (message: string): string =>
  firstLine(message)
    .replace(/^(Acquire connection error|Connection Error):\s*/, "")
    .replace(/^Error:\s*/, "");

export function driverLog(logger: Logger): DriverLog {
  let down = false;
  return {
    log: {
      warn(message: unknown) {
        const text = typeof message === "string" ? message : firstLine(message);
        if (CONNECTION_FAILURE.test(text)) {
          if (POOL_BUSY.test(causeOf(text))) {
            logger.debug({ cause: causeOf(text) }, "no database connection free in time");
            return;
          }
          if (!down) {
            down = true;
            logger.warn({ cause: causeOf(text) }, "database unreachable: answering 503 until it is back");
          } else {
            logger.debug({ cause: causeOf(text) }, "database still unreachable");
          }
          return;
        }
        logger.warn({ source: "knex" }, firstLine(text));
      },
      error(message: unknown) {
        logger.error({ source: "knex" }, firstLine(message));
      },
      deprecate(message: unknown) {
        logger.debug({ source: "knex" }, firstLine(message));
      },
      debug(message: unknown) {
        logger.debug({ source: "knex", detail: message }, "knex");
      },
    },
    connected() {
      if (!down) return;
      down = false;
      logger.warn("database reachable again");
    },
  };
}
