/**
 * Page tokens of every paged listing: opaque base64url (no padding) JSON, checked the same way
 * (canonical base64url, UTF-8, JSON). Anything malformed, tampered or foreign is
 * INVALID_PARAMETER_VALUE "Invalid page token".
 *
 * - Keyset tokens (runs/search, experiments/search, registered-models/search,
 *   model-versions/search): `{"v":1,"q":"<query fingerprint>","o":"<order>","k":["<value>", ...]}`.
 *   The fingerprint is a short hash of what the token is bound to (scope, and for runs and
 *   experiments the filter, order_by and view type; max_results never), so a token only continues
 *   the query it came from. `o`, when the search gives one, is the order's signature, so that a
 *   token used with another order_by says so. `k` holds the last returned row's sort values as
 *   PostgreSQL's text output (keyset.ts).
 * - Offset tokens: `{"offset":N}`.
 * - Cursor tokens (artifact listings): `{"cursor":"<the artifact store's own cursor>"}`.
 */
import { createHash } from "node:crypto";
import { invalidParameter } from "../errors.js";
import { sortKeysOf, type SortColumn, type SortType } from "./keyset.js";

const MAX_TOKEN_LENGTH = 200_000;
const MAX_VALUE_LENGTH = 60_000;
const TOKEN_VERSION = 1;

const invalidToken = (detail?: string) =>
  invalidParameter(detail ? `Invalid page token: ${detail}` : "Invalid page token");

/** The opaque form of a token's payload. */
function encodeToken(payload: object): string {
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/** The JSON object inside a token made by encodeToken; anything else is "Invalid page token". */
function decodeToken(token: unknown): Record<string, unknown> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalidToken();
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalidToken();
  const bytes = Buffer.from(token, "base64url");
  // Buffer decoding is lenient (it skips foreign characters); a canonical token re-encodes to itself.
  if (bytes.toString("base64url") !== token) throw invalidToken();
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalidToken();
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw invalidToken();
  return payload as Record<string, unknown>;
}

export function encodeOffsetToken(offset: number): string {
  return encodeToken({ offset });
}

export function decodeOffsetToken(token: string): number {
  const { offset } = decodeToken(token);
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) throw invalidToken();
  return offset;
}

export function encodeCursorToken(cursor: string): string {
  return encodeToken({ cursor });
}

/** The store cursor inside a cursor token (the store checks the cursor itself). */
export function decodeCursorToken(token: string): string {
  const { cursor } = decodeToken(token);
  if (typeof cursor !== "string" || cursor.length === 0) throw invalidToken();
  return cursor;
}

/**
 * Offset tokens bound to their query (searches paged by offset, such as logged-models/search):
 * `{"q":"<query fingerprint>","offset":N}`. A token given with another query is INVALID_PARAMETER_VALUE.
 */
export function encodeQueryOffsetToken(fingerprint: string, offset: number): string {
  return encodeToken({ q: fingerprint, offset });
}

export function decodeQueryOffsetToken(token: string, fingerprint: string): number {
  const offset = decodeOffsetToken(token);
  if (decodeToken(token).q !== fingerprint)
    throw invalidToken("it belongs to another query (experiment_ids, filter or order_by)");
  return offset;
}

/** JSON with object keys sorted, so equal values always serialise alike. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return JSON.stringify(String(value));
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** A short hash identifying one query (scope + everything that decides rows and order). */
export function queryFingerprint(scope: string, query: unknown): string {
  return createHash("sha256").update(canonicalJson({ scope, query })).digest("base64url").slice(0, 16);
}

/** A keyset token: the query's fingerprint, the order's signature (if any) and the last row's sort values. */
export function encodePageToken(fingerprint: string, values: readonly string[], order?: string): string {
  return encodeToken({ v: TOKEN_VERSION, q: fingerprint, o: order, k: values });
}

/**
 * One page of `rows` (read with a limit of `maxResults` + 1) and, when more rows follow, the token
 * of the next page: the last row's sort keys (`columns`), bound to the query and the order.
 */
export function keysetPage<Row extends Record<string, unknown>>(
  rows: readonly Row[],
  maxResults: number,
  fingerprint: string,
  columns: readonly SortColumn[],
  order?: string,
): { page: Row[]; nextPageToken?: string } {
  const page = rows.slice(0, maxResults);
  if (rows.length <= maxResults) return { page };
  return { page, nextPageToken: encodePageToken(fingerprint, sortKeysOf(page[page.length - 1], columns), order) };
}

const BIGINT_TEXT = /^-?\d{1,19}$/;
const INTEGER_TEXT = /^-?\d{1,9}$/;
const DOUBLE_TEXT = /^(?:-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|NaN|-?Infinity)$/;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

function validValue(type: SortType, value: string): boolean {
  switch (type) {
    case "bigint": {
      if (!BIGINT_TEXT.test(value)) return false;
      const n = BigInt(value);
      return n >= INT8_MIN && n <= INT8_MAX;
    }
    case "integer":
      return INTEGER_TEXT.test(value);
    case "double precision": {
      if (!DOUBLE_TEXT.test(value) || value.length > 40) return false;
      if (value === "NaN" || value === "Infinity" || value === "-Infinity") return true;
      // PostgreSQL rejects values that overflow or underflow a double; so do we.
      const n = Number(value);
      return Number.isFinite(n) && (n !== 0 || !/[1-9]/.test(value.split(/[eE]/)[0]));
    }
    case "text":
    case "bpchar":
      return value.length <= MAX_VALUE_LENGTH && !value.includes("\u0000");
  }
}

/**
 * Whether a payload is a registry token of the servers before the one token kit:
 * `{"s":"<search>","o":"<order>","a":[<values>]}`. Clients may still hold one across an upgrade.
 */
const isEarlierRegistryToken = (payload: Record<string, unknown>) =>
  typeof payload.s === "string" && typeof payload.o === "string" && Array.isArray(payload.a);

/**
 * Checks a client's keyset token against the query (its fingerprint, and the order's signature
 * when the search gives one) and returns the cursor values, one per sort column. Throws
 * INVALID_PARAMETER_VALUE: "Invalid page token: it was issued for another order_by" for a token
 * of the same search in another order, "Invalid page token: it was issued by an earlier version of
 * the server; ..." for a registry token of the servers before this format, "Invalid page token"
 * for anything else.
 */
export function decodePageToken(
  token: unknown,
  fingerprint: string,
  columns: readonly SortColumn[],
  order?: string,
): string[] {
  const payload = decodeToken(token);
  const { v, q, o, k } = payload;
  if (v === undefined && isEarlierRegistryToken(payload))
    throw invalidToken("it was issued by an earlier version of the server; search again without page_token");
  if (v !== TOKEN_VERSION || q !== fingerprint) throw invalidToken();
  if (o !== order) throw order === undefined ? invalidToken() : invalidToken("it was issued for another order_by");
  if (!Array.isArray(k) || k.length !== columns.length) throw invalidToken();
  const values: string[] = [];
  for (let i = 0; i < columns.length; i++) {
    const value: unknown = k[i];
    if (typeof value !== "string" || !validValue(columns[i].type, value)) throw invalidToken();
    values.push(value);
  }
  return values;
}
