import type { ErrorRequestHandler, RequestHandler } from "express";
import { TrackerError, type ErrorCode } from "../core/errors.js";
import { STATUS_OF_CODE, type ErrorBody } from "./error-body.js";

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

// SQLSTATE classes that mean "the database is not reachable right now".
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]);
const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);

function isDatabaseUnavailable(err: HttpLikeError & { name?: string }): boolean {
  if (err.code && (UNAVAILABLE_SQLSTATES.has(err.code) || UNAVAILABLE_NODE_CODES.has(err.code))) return true;
  if (err.name === "KnexTimeoutError") return true;
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(err.message ?? "");
}

/** Turns an express-openapi-validator error list into one message naming the fields. */
function validatorMessage(err: HttpLikeError): string {
  const items = err.errors ?? [];
  if (items.length === 0) return err.message ?? "Invalid request";
  return items
    .map((item) => {
      const field = (item.path ?? "").replace(/^\/(body|query|params|headers)\/?/, "").replace(/\//g, ".");
      const where = field ? `'${field}'` : "request";
      return `Invalid value for ${where}: ${item.message ?? "invalid"}`;
    })
    .join("; ");
}

export function sendError(res: Parameters<RequestHandler>[1], code: ErrorCode, message: string): void {
  const body: ErrorBody = { error_code: code, message };
  res.status(STATUS_OF_CODE[code]).json(body);
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
  if (status === 404 || status === 405) {
    sendError(res, "ENDPOINT_NOT_FOUND", `No operation at ${req.method} ${req.path}`);
    return;
  }
  if (status === 415) {
    sendError(res, "BAD_REQUEST", "Request body must be JSON (Content-Type: application/json)");
    return;
  }
  if (status === 400 || (status !== undefined && status >= 400 && status < 500 && Array.isArray(err.errors))) {
    sendError(res, "INVALID_PARAMETER_VALUE", validatorMessage(err));
    return;
  }
  if (status === 500 && Array.isArray(err.errors)) {
    // Response validation failure (tests only): a server bug, reported as such.
    req.log?.error({ err: rawErr }, "response failed validation against the spec");
    sendError(res, "INTERNAL_ERROR", `Response does not match the spec: ${validatorMessage(err)}`);
    return;
  }
  if (status !== undefined && status >= 400 && status < 500) {
    sendError(res, "BAD_REQUEST", err.message ?? "Bad request");
    return;
  }
  if (isDatabaseUnavailable(err)) {
    req.log?.warn({ err: rawErr }, "database unavailable");
    sendError(res, "TEMPORARILY_UNAVAILABLE", "The database is unavailable; retry later");
    return;
  }
  req.log?.error({ err: rawErr }, "unhandled error");
  sendError(res, "INTERNAL_ERROR", "Internal server error");
};
