import type { RequestHandler } from "express";
import type { Logger } from "../logging/logger.js";
import { sendError } from "./error-handler.js";
import { OPEN_PATHS } from "./security.js";
import { whenRequestOver } from "./request-work.js";

/**
 * A bound on the requests one server process works on at once. Every request in flight holds
 * memory (its parsed body, its place in the database pool's queue, its log record); without a
 * bound, 2,000 clients at once grow the process by hundreds of MiB while their requests wait. Beyond
 * the bound a request is answered at once with 503 TEMPORARILY_UNAVAILABLE and `Retry-After`, which
 * MLflow's client (urllib3's Retry) honours, so the load waits on the clients' side instead.
 *
 * The health probes are never refused: an orchestrator must not restart a process for being busy.
 */

/** Seconds a refused client should wait: the overload of a moment, not an outage. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

/** The log says so once when the bound is first reached, then at most once per this many ms. */
const LOG_INTERVAL_MS = 10_000;

export function limitInFlightRequests(max: number, logger?: Logger): RequestHandler {
  if (max <= 0) return (_req, _res, next) => next();
  let inFlight = 0;
  let refused = 0;
  let lastLog = 0;
  return (req, res, next) => {
    if (OPEN_PATHS.has(req.path)) {
      next();
      return;
    }
    if (inFlight >= max) {
      refused++;
      const now = Date.now();
      if (now - lastLog >= LOG_INTERVAL_MS) {
        logger?.warn(
          { maxInFlightRequests: max, refusedSinceLastLine: refused },
          "too many requests in flight: answering 503 until some finish",
        );
        lastLog = now;
        refused = 0;
      }
      // The body is not read: reading it only to throw it away would cost what the bound saves.
      if (!req.complete) res.setHeader("Connection", "close");
      sendError(
        res,
        "TEMPORARILY_UNAVAILABLE",
        `The server is busy (${max} requests in flight); retry later`,
        OVERLOAD_RETRY_AFTER_SECONDS,
      );
      return;
    }
    inFlight++;
    // Over when the answer has closed and the handler has settled: a cut request's handler may
    // still be working after its client has gone (http/request-work.ts).
    whenRequestOver(res, () => inFlight--);
    next();
  };
}
