import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "../logging/logger.js";

/**
 * The request log: one line per request when it ends, with the request as it came (id, method,
 * URL), the status and the duration in milliseconds (`responseTime`); the headers too at debug,
 * without the credentials. A 5xx answer is an error ("request errored"), except a 503 without an
 * error (the database is away: a warning, the outage itself is reported once by the database
 * watch); any other a "request completed" at info. So LOG_LEVEL=warn keeps the failures only, and a
 * line whose level is off costs one comparison. `req.log` is the logger bound to the request, made
 * only when something logs through it.
 */

declare module "node:http" {
  interface IncomingMessage {
    /** The request's number in the log (set by requestLogging). */
    id?: number;
    /** The logger bound to this request (set by requestLogging). */
    log: Logger;
  }
}

type LoggedRequest = IncomingMessage & { originalUrl?: string };
type LogLevel = "info" | "warn" | "error";

/** 503 (the database is away) is a warning; any other 5xx an error; the rest info. */
export const requestLogLevel = (statusCode: number): LogLevel =>
  statusCode >= 500 ? (statusCode === 503 ? "warn" : "error") : "info";

const CREDENTIALS = new Set(["authorization", "cookie", "set-cookie", "proxy-authorization"]);

function withoutCredentials(headers: IncomingHttpHeaders | Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) kept[name] = CREDENTIALS.has(name) ? "[redacted]" : value;
  return kept;
}

/** Request ids: 1, 2, ... */
function requestIds(): () => number {
  let next = 0;
  return () => {
    next = (next + 1) & 2147483647;
    return next;
  };
}

interface RequestRecord {
  id: number;
  method: string | undefined;
  url: string | undefined;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
}

/** What `req.log` is made from: the request's record, made into a child logger on first use. */
interface LogBinding {
  logger: Logger;
  record: RequestRecord;
  log?: Logger;
}

const BINDING = Symbol("tracker.requestLog");

type BoundRequest = LoggedRequest & { [BINDING]?: LogBinding };

/**
 * `req.log` as an accessor of the requests' prototype (Express's `app.request`), defined once, over
 * the binding each request holds in a plain property. Defining the accessor on each request instead
 * gave every request object its own shape (V8 turns an object with an accessor unlike its
 * siblings' into a slow dictionary), which every later property access of every middleware paid.
 */
function logOf(this: BoundRequest): Logger | undefined {
  const binding = this[BINDING];
  if (!binding) return undefined;
  binding.log ??= binding.logger.child({ req: binding.record });
  return binding.log;
}

function setLog(this: BoundRequest, value: Logger): void {
  const binding = this[BINDING];
  if (binding) binding.log = value;
  else Object.defineProperty(this, "log", { configurable: true, enumerable: false, writable: true, value });
}

function defineLogAccessor(prototype: object): void {
  if (Object.getOwnPropertyDescriptor(prototype, "log")?.get === logOf) return;
  Object.defineProperty(prototype, "log", { configurable: true, enumerable: false, get: logOf, set: setLog });
}

export function requestLogging(logger: Logger): RequestHandler {
  const nextId = requestIds();
  let prototype: object | undefined;
  return (request, response, next) => {
    const req = request as BoundRequest;
    const res = response as ServerResponse;
    const started = performance.now();
    const id = nextId();
    req.id = id;
    // The request as it came, before normaliseRequest rewrites its URL.
    const bound: RequestRecord = { id, method: req.method, url: req.originalUrl ?? req.url };
    const debug = logger.isLevelEnabled("debug");
    if (debug) {
      bound.headers = withoutCredentials(req.headers);
      bound.remoteAddress = req.socket.remoteAddress;
    }
    const own = Object.getPrototypeOf(req) as object;
    if (own !== prototype) {
      defineLogAccessor(own);
      prototype = own;
    }
    req[BINDING] = { logger, record: bound };
    // 'close' follows 'finish' for every answer, and comes alone when the client went away first.
    res.once("close", () => {
      const level = requestLogLevel(res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      const answer: { statusCode: number; headers?: Record<string, unknown> } = { statusCode: res.statusCode };
      if (debug) answer.headers = withoutCredentials(res.getHeaders());
      const record = { req: bound, res: answer, responseTime: performance.now() - started };
      logger[level](record, level === "info" ? "request completed" : "request errored");
    });
    next();
  };
}
