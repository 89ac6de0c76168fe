import type { components } from "./generated/rev-c.js";

/** The error codes a tracker server sends in `{"error_code", "message"}` bodies. */
export type ServerErrorCode = components["schemas"]["ErrorCode"];

/**
 * Codes the client uses itself when there is no usable answer from the server:
 * NETWORK_ERROR (the request could not be sent or the connection broke), TIMEOUT (no complete answer
 * within `timeoutMs`), ABORTED (the caller's AbortSignal fired), UNEXPECTED_RESPONSE (an answer that is
 * not the JSON the API promises, e.g. an HTML page from a proxy).
 */
export type ClientErrorCode = "NETWORK_ERROR" | "TIMEOUT" | "ABORTED" | "UNEXPECTED_RESPONSE";

export type ErrorCode = ServerErrorCode | ClientErrorCode;

export interface TrackerErrorInit {
  errorCode: ErrorCode;
  /** HTTP status of the answer; 0 when no answer was received. */
  status: number;
  message: string;
  cause?: unknown;
}

/** The one error class every operation of this package throws. */
export class TrackerError extends Error {
  override readonly name = "TrackerError";
  /** The server's `error_code` (e.g. RESOURCE_DOES_NOT_EXIST), or a {@link ClientErrorCode}. */
  readonly errorCode: ErrorCode;
  /** HTTP status of the answer; 0 when no answer was received (network error, timeout, abort). */
  readonly status: number;

  constructor(init: TrackerErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.errorCode = init.errorCode;
    this.status = init.status;
  }

  /** Builds the error for a non-2xx answer from its status and its (parsed or raw) body. */
  static fromResponse(status: number, body: unknown): TrackerError {
    if (isErrorBody(body)) {
      return new TrackerError({ errorCode: body.error_code as ErrorCode, status, message: body.message });
    }
    const text = typeof body === "string" ? body.trim().slice(0, 500) : "";
    return new TrackerError({
      errorCode: fallbackCode(status),
      status,
      message: text ? `HTTP ${status}: ${text}` : `HTTP ${status} without an error body`,
    });
  }
}

/** True when `error` is a {@link TrackerError}, optionally with the given code. */
export function isTrackerError(error: unknown, errorCode?: ErrorCode): error is TrackerError {
  return error instanceof TrackerError && (errorCode === undefined || error.errorCode === errorCode);
}

function isErrorBody(body: unknown): body is { error_code: string; message: string } {
  if (typeof body !== "object" || body === null) return false;
  const record = body as Record<string, unknown>;
  return typeof record.error_code === "string" && typeof record.message === "string";
}

/** The code implied by a status when the body carries none (see the spec's status table). */
function fallbackCode(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "BAD_REQUEST";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "ENDPOINT_NOT_FOUND";
    case 413:
      return "REQUEST_TOO_LARGE";
    case 501:
      return "NOT_IMPLEMENTED";
    case 503:
      return "TEMPORARILY_UNAVAILABLE";
    default:
      return status >= 500 ? "INTERNAL_ERROR" : "UNEXPECTED_RESPONSE";
  }
}
