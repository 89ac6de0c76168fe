import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logging/logger.js";
import { requestLogSerializers } from "../logging/request-log.js";

/**
 * The request log: pino-http writes a line per request at info (and with headers at debug). When
 * info is off (LOG_LEVEL=warn or above) only failed requests (5xx) make a line, and pino-http's
 * work per request (a child logger with the serialized request, bound before the handler runs) is
 * skipped: the request's logger is made only when something logs through it, and the failure line
 * is the one pino-http writes (same level, fields and message).
 */

const isMadeUpStatusError = (error: Error): boolean => /^failed with status code \d+$/.test(error.message);

function withoutErr(record: Record<string, unknown>): Record<string, unknown> {
  const { err: _made_up, ...rest } = record;
  return rest;
}

/** 503 (the database is away) is a warning: the outage itself is reported once, by the database watch. */
const levelOf = (statusCode: number, err: Error | undefined) =>
  err || statusCode >= 500 ? (statusCode === 503 && !err ? "warn" : "error") : "info";

/** pino-http's request ids: 1, 2, ... (one counter for both ways of logging). */
function requestIds(): () => number {
  let next = 0;
  return () => {
    next = (next + 1) & 2147483647;
    return next;
  };
}

type LoggedRequest = IncomingMessage & { id?: unknown; log?: Logger; originalUrl?: string };
type LoggedResponse = ServerResponse & { err?: Error };

export function requestLogging(logger: Logger): RequestHandler {
  const nextId = requestIds();
  const full = pinoHttp({
    logger,
    genReqId: nextId,
    customLogLevel: (_req, res, err) => levelOf(res.statusCode, err),
    // pino-http makes up an Error("failed with status code N") with a stack trace for every 5xx
    // answer; it says nothing the status does not, so the request line leaves it out.
    customErrorObject: (_req, _res, error, record) => (isMadeUpStatusError(error) ? withoutErr(record) : record),
    // One short record per request; the headers only when debugging.
    serializers: requestLogSerializers(() => logger.isLevelEnabled("debug")),
    // Never write the bearer token (or cookies) to the log.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[redacted]" },
  });
  // pino-http's own logger (its serializers and redaction), for the failures-only way.
  const httpLogger = full.logger as Logger;

  const failuresOnly = (req: LoggedRequest, res: LoggedResponse, next: () => void): void => {
    const id = req.id ?? nextId();
    req.id = id;
    // What pino-http binds: the request as it came (before normaliseRequest rewrites its URL).
    const bound = { id, method: req.method, url: req.originalUrl ?? req.url };
    let log: Logger | undefined;
    Object.defineProperty(req, "log", {
      configurable: true,
      enumerable: false,
      get: () => {
        log ??= httpLogger.child({ req: bound });
        return log;
      },
      set: (value: Logger) => {
        log = value;
      },
    });
    const started = Date.now();
    const done = (err?: Error) => {
      res.removeListener("close", done);
      res.removeListener("finish", done);
      res.removeListener("error", done);
      const error = err ?? res.err;
      if (!error && res.statusCode < 500) return;
      const level = levelOf(res.statusCode, error);
      const reported = error ?? new Error(`failed with status code ${res.statusCode}`);
      const record: Record<string, unknown> = { res, err: reported, responseTime: Date.now() - started };
      (req.log as Logger)[level](isMadeUpStatusError(reported) ? withoutErr(record) : record, "request errored");
    };
    res.on("close", done);
    res.on("finish", done);
    res.on("error", done);
    next();
  };

  return (req, res, next) =>
    logger.isLevelEnabled("info") ? full(req, res, next) : failuresOnly(req as LoggedRequest, res, next);
}
