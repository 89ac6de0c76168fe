import type { ErrorCode } from "../core/errors.js";

/** HTTP status of each error code, as design.md fixes it. */
export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  INVALID_PARAMETER_VALUE: 400,
  RESOURCE_ALREADY_EXISTS: 400,
  INVALID_STATE: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  RESOURCE_DOES_NOT_EXIST: 404,
  ENDPOINT_NOT_FOUND: 404,
  REQUEST_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  TEMPORARILY_UNAVAILABLE: 503,
};

export interface ErrorBody {
  error_code: ErrorCode;
  message: string;
}
