import type { ServerResponse } from "node:http";
import { Ajv2020, type Format, type ValidateFunction } from "ajv/dist/2020.js";

/**
 * Checks JSON answers against the OpenAPI document of the operation that made them (tests turn it on
 * with `validateResponses`). It sits beside the answer path, not in it: http/json-response.ts writes
 * every JSON answer the same way with the check on or off, and only asks it first whether the body is
 * what the document says. The rules are those of express-openapi-validator's response validation,
 * which this replaces: the status's response, else its `NXX` range, else `default`, and an
 * undocumented status is a server bug.
 */

/** Why a body does not match its operation's documented answer, or undefined when it does. */
export type ResponseCheck = (status: number, body: unknown) => string | undefined;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const MAX_INT64 = 2 ** 63 - 1;
const MAX_INT32 = 2 ** 31 - 1;
const MAX_FLOAT = (2 - 2 ** -23) * 2 ** 127;
const MIN_POSITIVE_FLOAT = 2 ** -126;

/** The OpenAPI formats, with express-openapi-validator's meaning (numbers in range, strings as they come). */
const OPENAPI_FORMATS: Record<string, Format> = {
  int32: {
    type: "number" as const,
    validate: (i: number) => Number.isInteger(i) && i <= MAX_INT32 && i >= -MAX_INT32 - 1,
  },
  int64: { type: "number" as const, validate: (i: number) => Number.isInteger(i) && Math.abs(i) <= MAX_INT64 },
  float: {
    type: "number" as const,
    validate: (i: number) => i === 0 || (Math.abs(i) >= MIN_POSITIVE_FLOAT && Math.abs(i) <= MAX_FLOAT),
  },
  double: { type: "number" as const, validate: () => true },
  binary: true,
  byte: true,
  password: true,
};

/** The object at a JSON pointer of the document (an empty object where there is none). */
function resolvePointer(document: JsonObject, pointer: string): JsonObject {
  let node: Json | undefined = document;
  for (const segment of pointer.split("/").slice(1)) {
    node = isObject(node) ? node[segment.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  return isObject(node) ? node : {};
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * The checks of one document, by operationId: each operation's validators are compiled the first
 * time it answers.
 */
export function responseChecks(document: JsonObject): (operationId: string) => ResponseCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: OPENAPI_FORMATS });
  ajv.addSchema(document, "openapi");
  const where = new Map<string, { path: string; method: string }>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (isObject(operation) && typeof operation.operationId === "string") {
        where.set(operation.operationId, { path, method });
      }
    }
  }
  const compiled = new Map<string, ResponseCheck>();

  const checkOf = (operationId: string): ResponseCheck => {
    const at = where.get(operationId);
    if (!at) return () => `operation ${operationId} is not in the document`;
    const operation = (paths[at.path] as JsonObject)[at.method] as JsonObject;
    const responses = isObject(operation.responses) ? operation.responses : {};
    const validators = new Map<string, ValidateFunction | null>();
    const validatorOf = (key: string): ValidateFunction | null => {
      let validator = validators.get(key);
      if (validator === undefined) {
        // A response is written in place or as a $ref to components/responses.
        let pointer = `/paths/${escapePointer(at.path)}/${at.method}/responses/${key}`;
        let response = responses[key] as JsonObject;
        while (typeof response.$ref === "string" && response.$ref.startsWith("#/")) {
          pointer = response.$ref.slice(1);
          response = resolvePointer(document, pointer);
        }
        const content = response.content;
        const mediaType = isObject(content) ? (Object.keys(content).find((t) => t.includes("json")) ?? null) : null;
        validator = mediaType
          ? ajv.compile({ $ref: `openapi#${pointer}/content/${escapePointer(mediaType)}/schema` })
          : null;
        validators.set(key, validator);
      }
      return validator;
    };
    return (status, body) => {
      const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => isObject(responses[k]));
      if (!key) return `no schema defined for status code '${status}' in the openapi spec`;
      const validator = validatorOf(key);
      if (!validator) return body === undefined ? undefined : "response should NOT have a body";
      if (validator(body)) return undefined;
      return (validator.errors ?? []).map((e) => `/response${e.instancePath} ${e.message ?? ""}`).join("; ");
    };
  };

  return (operationId) => {
    let check = compiled.get(operationId);
    if (!check) {
      check = checkOf(operationId);
      compiled.set(operationId, check);
    }
    return check;
  };
}

const CHECK = Symbol("tracker.responseCheck");

/** Makes the JSON answers of this response be checked (set when its operation is known). */
export function checkAnswersOf(res: ServerResponse, check: ResponseCheck): void {
  (res as ServerResponse & { [CHECK]?: ResponseCheck })[CHECK] = check;
}

/** Whether this answer is checked against its operation's document (checkAnswersOf). */
export function answerChecked(res: ServerResponse): boolean {
  return (res as ServerResponse & { [CHECK]?: ResponseCheck })[CHECK] !== undefined;
}

/** What is wrong with this answer by its operation's document, if it is checked and something is. */
export function answerProblem(res: ServerResponse, status: number, body: unknown): string | undefined {
  return (res as ServerResponse & { [CHECK]?: ResponseCheck })[CHECK]?.(status, body);
}
