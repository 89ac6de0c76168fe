import type { ErrorRequestHandler, RequestHandler } from "express";
import { invalidValue, missingValue, TrackerError, wrongType, type ErrorCode } from "../core/errors.js";
import { databaseProblemOf } from "../db/database-problems.js";
import { STATUS_OF_CODE, type ErrorBody } from "./error-body.js";
import { floatLiteralAt } from "./request-body.js";
import { sendJson } from "./json-response.js";
import { originOf } from "./request-origin.js";

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: ValidatorErrorItem[];
  code?: string;
}

/**
 * PostgreSQL data exceptions (SQLSTATE class 22: a value the database cannot store, cast or compare)
 * and program limits (54xxx, e.g. an expression nested too deeply) are caused by the request's
 * values; they are the client's error. The database's own message is not passed on: it may quote SQL.
 */
function isDataException(err: HttpLikeError): boolean {
  return typeof err.code === "string" && /^(22|54)[0-9A-Z]{3}$/.test(err.code);
}

/** A JavaScript stack overflow while handling one request (e.g. absurdly nested input). */
function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /Maximum call stack size exceeded/.test(err.message);
}

/** `/body/metrics/0/value` -> segments `metrics`, `0`, `value`, and where they point to. */
function fieldOf(item: ValidatorErrorItem): { source: "body" | "query" | "other"; segments: string[] } {
  const parts = (item.path ?? "").split("/").filter((p) => p !== "");
  const source = parts[0] === "body" || parts[0] === "query" ? parts[0] : "other";
  return { source, segments: source === "other" ? parts : parts.slice(1) };
}

/** MLflow's way of writing a field path: `metrics[0].value`. */
const pathText = (segments: readonly string[]) =>
  segments.reduce((text, s) => (/^\d+$/.test(s) ? `${text}[${s}]` : text ? `${text}.${s}` : s), "");

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const s of segments) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

/**
 * Turns the first failure the validator found into MLflow's message for it (MLflow reports one
 * field at a time): a missing field, a value of the wrong type (with Python's name of the type), a
 * value too long, or an invalid value.
 */
function validatorMessage(err: HttpLikeError, req: Parameters<ErrorRequestHandler>[1]): string {
  const item = (err.errors ?? [])[0];
  if (!item) return err.message ?? "Invalid request";
  const { source, segments } = fieldOf(item);
  const root = source === "body" ? req.body : source === "query" ? req.query : undefined;
  const message = item.message ?? "invalid";
  const kind = (item.errorCode ?? "").split(".")[0];
  const missing = /must have required property '([^']+)'/.exec(message);
  if (kind === "required" || missing) {
    const last = segments[segments.length - 1];
    const field = missing && last !== missing[1] ? [...segments, missing[1]] : segments;
    return missingValue(pathText(field)).message;
  }
  const field = pathText(segments) || "request";
  const value = valueAt(root, segments);
  if (kind === "type")
    return wrongType(field, value, source === "body" ? floatLiteralAt(req, segments) : undefined).message;
  // A model version is decimal digits (ModelVersionNumber); MLflow's words for anything else, a
  // value too long to be one included ("something not correct" is 21 characters).
  if ((kind === "pattern" || kind === "maxLength") && segments[segments.length - 1] === "version")
    return "Model version must be an integer";
  const tooLong = /must NOT have more than (\d+) characters/.exec(message);
  if (tooLong) return `'${field}' exceeds the maximum length of ${tooLong[1]} characters`;
  if (kind === "maximum" || kind === "minimum" || kind === "exclusiveMaximum" || kind === "exclusiveMinimum")
    return invalidValue(field, value).message;
  return invalidValue(field, value, message).message;
}

/** Seconds a client should wait before retrying a 503 answer (the database is usually back by then). */
export const RETRY_AFTER_SECONDS = 5;

export function sendError(
  res: Parameters<RequestHandler>[1],
  code: ErrorCode,
  message: string,
  retryAfterSeconds = RETRY_AFTER_SECONDS,
): void {
  const body: ErrorBody = { error_code: code, message };
  const status = STATUS_OF_CODE[code];
  if (status === 503) res.setHeader("Retry-After", String(retryAfterSeconds));
  sendJson(res, body, status);
}

/** Maps anything thrown by a handler, the validator or body parser to the API's error body. */
export const errorHandler: ErrorRequestHandler = (rawErr, req, res, _next) => {
  const err = (rawErr ?? {}) as HttpLikeError & { name?: string };
  if (res.headersSent) {
    req.log?.error({ err: rawErr }, "error after response headers were sent");
    res.end();
    return;
  }
  if (rawErr instanceof TrackerError) {
    sendError(res, rawErr.code, rawErr.message);
    return;
  }
  const status = err.status ?? err.statusCode;
  if (err.type === "entity.too.large" || status === 413) {
    sendError(res, "REQUEST_TOO_LARGE", "Request body is larger than the limit of 1 MB");
    return;
  }
  if (err.type === "entity.parse.failed") {
    sendError(res, "BAD_REQUEST", "Request body is not valid JSON");
    return;
  }
  if (err.type === "encoding.invalid.utf8") {
    sendError(res, "BAD_REQUEST", "Request body is not valid UTF-8");
    return;
  }
  if (err.type === "encoding.unsupported" || err.type === "charset.unsupported") {
    sendError(
      res,
      "BAD_REQUEST",
      "Request body must be JSON in UTF-8, without an unsupported Content-Encoding or charset",
    );
    return;
  }
  if (status === 404 || status === 405) {
    sendError(res, "ENDPOINT_NOT_FOUND", `No operation at ${req.method} ${originOf(res).path}`);
    return;
  }
  if (status === 415) {
    sendError(res, "BAD_REQUEST", "Request body must be JSON (Content-Type: application/json)");
    return;
  }
  if (err.type && status !== undefined && status >= 400 && status < 500 && !Array.isArray(err.errors)) {
    // body-parser's other refusals (size mismatch, aborted upload): the body, not a field, is wrong.
    sendError(res, "BAD_REQUEST", (err.message ?? "Bad request").split("\n")[0].slice(0, 200));
    return;
  }
  if (status === 400 || (status !== undefined && status >= 400 && status < 500 && Array.isArray(err.errors))) {
    sendError(res, "INVALID_PARAMETER_VALUE", validatorMessage(err, req));
    return;
  }
  if (status !== undefined && status >= 400 && status < 500) {
    // body-parser and the like: their messages are short and carry no internals.
    sendError(res, "BAD_REQUEST", (err.message ?? "Bad request").split("\n")[0].slice(0, 200));
    return;
  }
  const problem = databaseProblemOf(rawErr);
  if (problem) {
    // An outage is reported once (db/driver-log.ts) and each answer by its request line (503, a
    // warning); a timeout is said per request, with which timeout it was. The driver's error and
    // stack only at debug.
    if (problem.kind === "unreachable") req.log?.debug({ err: rawErr }, "database unavailable");
    else {
      req.log?.warn({ databaseProblem: problem.kind }, `database ${problem.kind}: answering 503`);
      req.log?.debug({ err: rawErr }, `database ${problem.kind}`);
    }
    sendError(res, "TEMPORARILY_UNAVAILABLE", problem.message);
    return;
  }
  if (isDataException(err)) {
    req.log?.warn({ err: rawErr }, "the database refused a value of the request");
    sendError(
      res,
      "INVALID_PARAMETER_VALUE",
      "A value in the request cannot be stored or compared by the database (out of range or an invalid character)",
    );
    return;
  }
  if (isStackOverflow(rawErr)) {
    req.log?.warn({ err: rawErr }, "request too deeply nested");
    sendError(res, "INVALID_PARAMETER_VALUE", "The request is nested too deeply to be processed");
    return;
  }
  req.log?.error({ err: rawErr }, "unhandled error");
  sendError(res, "INTERNAL_ERROR", "Internal server error");
};
