/**
 * Keyset paging shared by runs/search and experiments/search.
 *
 * A search orders its rows by a list of sort columns, each a NOT NULL SQL expression (nullable
 * values are split into a "missing rank" column and a COALESCEd value column by the caller) and
 * ending with a unique column, so the order is total. A page token holds the text form of the
 * last returned row's sort values; the next page asks for rows strictly after that tuple. A page
 * is therefore stable under concurrent inserts and deletes: rows are neither repeated nor skipped
 * because of rows added or removed before the cursor. Every order is keyset-paged; no order falls
 * back to an offset.
 *
 * Values travel as PostgreSQL's text output of each column (`CAST(expr AS text)`) and come back as
 * `CAST(? AS <type>)`, so bigint and double precision values round-trip exactly (PostgreSQL 12+
 * prints the shortest exact form of a double, NaN and Infinity included), and string values
 * compare under the column expression's collation exactly as ORDER BY sorts them.
 *
 * Token: base64url (no padding) of JSON `{"v":1,"q":"<query fingerprint>","k":["<value>", ...]}`.
 * The fingerprint is a short hash of everything that decides the result set and its order (scope,
 * experiment ids, filter AST, order_by, view type, but not max_results), so a token only continues
 * the query it came from. Anything malformed, tampered or foreign is `Invalid page token`.
 */
import { createHash } from "node:crypto";
import { invalidParameter } from "../errors.js";

/** The SQL type of a sort column; decides how a token value is validated and cast back. */
export type SortType = "bigint" | "integer" | "double precision" | "text" | "bpchar";

export interface SortColumn {
  /** A NOT NULL SQL expression without bindings (column references and constants only). */
  sql: string;
  descending: boolean;
  type: SortType;
}

export interface SqlFragment {
  sql: string;
  bindings: string[];
}

const MAX_TOKEN_LENGTH = 200_000;
const MAX_VALUE_LENGTH = 60_000;
const TOKEN_VERSION = 1;

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

export function encodePageToken(fingerprint: string, values: readonly string[]): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, q: fingerprint, k: values }), "utf8").toString("base64url");
}

const invalidToken = () => invalidParameter("Invalid page token");

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
 * Checks a client's page token against the query and returns the cursor values, one per sort
 * column. Throws INVALID_PARAMETER_VALUE "Invalid page token" for anything else.
 */
export function decodePageToken(token: unknown, fingerprint: string, columns: readonly SortColumn[]): string[] {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalidToken();
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalidToken();
  const bytes = Buffer.from(token, "base64url");
  // Buffer decoding is lenient; a canonical token re-encodes to itself.
  if (bytes.toString("base64url") !== token) throw invalidToken();
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalidToken();
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw invalidToken();
  const { v, q, k } = payload as Record<string, unknown>;
  if (v !== TOKEN_VERSION || q !== fingerprint || !Array.isArray(k) || k.length !== columns.length)
    throw invalidToken();
  const values: string[] = [];
  for (let i = 0; i < columns.length; i++) {
    const value: unknown = k[i];
    if (typeof value !== "string" || !validValue(columns[i].type, value)) throw invalidToken();
    values.push(value);
  }
  return values;
}

/** `CAST(c0 AS text) AS k0, ...` for the SELECT list. */
export function sortKeySelections(columns: readonly SortColumn[]): string[] {
  return columns.map((column, i) => `CAST(${column.sql} AS text) AS k${i}`);
}

/** The ORDER BY list. */
export function orderByList(columns: readonly SortColumn[]): string {
  return columns.map((column) => `${column.sql} ${column.descending ? "DESC" : "ASC"}`).join(", ");
}

/** Reads the cursor values back from a row selected with `sortKeySelections`. */
export function sortKeysOf(row: Record<string, unknown>, columns: readonly SortColumn[]): string[] {
  return columns.map((_, i) => {
    const value = row[`k${i}`];
    if (typeof value !== "string") throw new Error(`sort key k${i} is not a string (got ${typeof value})`);
    return value;
  });
}

/**
 * Rows strictly after the cursor in the order of `columns`:
 *   c0 >= v0 AND (c0 > v0 OR (c0 = v0 AND (c1 > v1 OR (c1 = v1 AND ... cn > vn))))
 * (with < / <= for descending columns). The leading bound on c0 is redundant; it lets an index on
 * c0 start the scan at the cursor.
 */
export function keysetCondition(columns: readonly SortColumn[], values: readonly string[]): SqlFragment {
  if (columns.length === 0 || columns.length !== values.length)
    throw new Error("keysetCondition: columns and values differ");
  const bindings: string[] = [];
  const param = (i: number) => `CAST(? AS ${columns[i].type})`;
  const build = (i: number): string => {
    const column = columns[i];
    const strict = column.descending ? "<" : ">";
    bindings.push(values[i]);
    if (i === columns.length - 1) return `${column.sql} ${strict} ${param(i)}`;
    const head = `${column.sql} ${strict} ${param(i)}`;
    bindings.push(values[i]);
    const equal = `${column.sql} = ${param(i)}`;
    return `(${head} OR (${equal} AND ${build(i + 1)}))`;
  };
  const first = columns[0];
  const lead = `${first.sql} ${first.descending ? "<=" : ">="} ${param(0)}`;
  bindings.push(values[0]);
  const rest = build(0);
  return { sql: `${lead} AND ${rest}`, bindings };
}
