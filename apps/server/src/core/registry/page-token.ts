import { invalidParameter } from "../errors.js";

/**
 * Keyset page tokens of the registry searches: opaque base64url JSON holding the search they
 * belong to, its complete order and the sort values of the last item returned. The next page
 * starts strictly after those values, so inserts and deletes between pages neither repeat nor
 * skip items that did not move.
 */

export type SortValue = string | number;
export type SortValueType = "text" | "integer";

interface TokenBody {
  s: string;
  o: string;
  a: SortValue[];
}

export function encodeKeysetToken(search: string, order: string, after: SortValue[]): string {
  const body: TokenBody = { s: search, o: order, a: after };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

const valid = (value: unknown, type: SortValueType) =>
  type === "text"
    ? typeof value === "string" && !value.includes("\u0000")
    : typeof value === "number" && Number.isSafeInteger(value);

/**
 * The sort values of a token made by encodeKeysetToken for the same search and order, checked
 * against the types of the order's columns. Anything else is INVALID_PARAMETER_VALUE.
 */
export function decodeKeysetToken(
  token: string,
  search: string,
  order: string,
  types: readonly SortValueType[],
): SortValue[] {
  // Buffer decoding is lenient (it skips foreign characters); only a canonical token is accepted.
  if (!/^[A-Za-z0-9_-]+$/.test(token) || Buffer.from(token, "base64url").toString("base64url") !== token)
    throw invalidParameter("Invalid page token");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidParameter("Invalid page token");
  }
  const body = parsed as Partial<TokenBody> | null;
  if (typeof body !== "object" || body === null || body.s !== search || !Array.isArray(body.a))
    throw invalidParameter("Invalid page token");
  if (body.o !== order) throw invalidParameter("Invalid page token: it was issued for another order_by");
  const after = body.a;
  if (after.length !== types.length || !after.every((value, i) => valid(value, types[i])))
    throw invalidParameter("Invalid page token");
  return after;
}
