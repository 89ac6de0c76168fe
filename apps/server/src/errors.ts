/** Error codes of the API (see spec/components/errors.yaml). Below every layer: core/, search/ and http/ raise these. */
export type ErrorCode =
  | "INVALID_PARAMETER_VALUE"
  | "RESOURCE_ALREADY_EXISTS"
  | "RESOURCE_DOES_NOT_EXIST"
  | "INVALID_STATE"
  | "BAD_REQUEST"
  | "ENDPOINT_NOT_FOUND"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
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
export const badRequest = (message: string) => new TrackerError("BAD_REQUEST", message);

const SEE_DOCS = "See the API docs for more information about request parameters.";

/** MLflow's message for a required request field that is missing (or empty). */
export const missingValue = (field: string) =>
  invalidParameter(`Missing value for required parameter '${field}'. ${SEE_DOCS}`);

/** Python's name of a JSON value's type, as MLflow's messages name it. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  return Array.isArray(value) ? "list" : "dict";
}

/** Longest rendering of a value a message carries; longer ones end with `...`. */
const MAX_VALUE_TEXT = 200;
/** Deeper values are not rendered (hostile input must not exhaust the stack while reporting it). */
const MAX_VALUE_DEPTH = 10;

/**
 * A JSON value written as MLflow writes it in messages (`json.dumps(..., sort_keys=True,
 * separators=(",", ":"))`), cut to MAX_VALUE_TEXT characters.
 */
function mlflowJson(value: unknown): string {
  const render = (v: unknown, depth: number): string => {
    if (depth > MAX_VALUE_DEPTH) return "...";
    if (Array.isArray(v))
      return `[${v
        .slice(0, 50)
        .map((item) => render(item, depth + 1))
        .join(",")}${v.length > 50 ? ",..." : ""}]`;
    if (v && typeof v === "object") {
      const keys = Object.keys(v).sort().slice(0, 50);
      return `{${keys.map((k) => `${JSON.stringify(k)}:${render((v as Record<string, unknown>)[k], depth + 1)}`).join(",")}}`;
    }
    return JSON.stringify(v) ?? "null";
  };
  const text = render(value, 0);
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT)}...` : text;
}

/**
 * MLflow's message for a request field of the wrong type; `floatText` is the value as Python writes
 * it when the request wrote a float (`9.0`), which JSON.parse reads as an integer.
 */
export const wrongType = (field: string, value: unknown, floatText?: string) =>
  invalidParameter(
    `Invalid value ${floatText ?? mlflowJson(value)} for parameter '${field}' supplied. Hint: Value was of type '${floatText === undefined ? pythonTypeName(value) : "float"}'. ${SEE_DOCS}`,
  );

/** MLflow's message for a request field with an unacceptable value (`Invalid value 123456789 for parameter 'max_results' supplied.`). */
export const invalidValue = (field: string, value: unknown, why?: string) =>
  invalidParameter(`Invalid value ${mlflowJson(value)} for parameter '${field}' supplied${why ? `: ${why}` : "."}`);
