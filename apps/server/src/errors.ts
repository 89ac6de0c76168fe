/** Error codes of the API (see spec/components/errors.yaml). Below every layer: core/, search/ and http/ raise these. */
export type ErrorCode =
  | "INVALID_PARAMETER_VALUE"
  | "RESOURCE_ALREADY_EXISTS"
  | "RESOURCE_DOES_NOT_EXIST"
  | "INVALID_STATE"
  | "BAD_REQUEST"
  | "ENDPOINT_NOT_FOUND"
  | "UNAUTHENTICATED"
  | "REQUEST_TOO_LARGE"
  | "INTERNAL_ERROR"
  | "NOT_IMPLEMENTED"
  | "TEMPORARILY_UNAVAILABLE";

/** A failure the client is told about: a code from the API and a human-readable message. */
export class TrackerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TrackerError";
  }
}

export const invalidParameter = (message: string) => new TrackerError("INVALID_PARAMETER_VALUE", message);
export const notFound = (message: string) => new TrackerError("RESOURCE_DOES_NOT_EXIST", message);
export const alreadyExists = (message: string) => new TrackerError("RESOURCE_ALREADY_EXISTS", message);
export const invalidState = (message: string) => new TrackerError("INVALID_STATE", message);
