import { invalidParameter } from "./errors.js";

/** Opaque page tokens for offset-paged listings: base64url JSON `{"offset": N}`. */

export function encodeOffsetToken(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), "utf8").toString("base64url");
}

export function decodeOffsetToken(token: string): number {
  // Buffer decoding is lenient (it skips foreign characters); only a canonical token is accepted.
  if (!/^[A-Za-z0-9_-]+$/.test(token) || Buffer.from(token, "base64url").toString("base64url") !== token)
    throw invalidParameter("Invalid page token");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidParameter("Invalid page token");
  }
  const offset = (parsed as { offset?: unknown } | null)?.offset;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0)
    throw invalidParameter("Invalid page token");
  return offset;
}

/**
 * Offset page tokens bound to their query: base64url JSON `{"q": "<fingerprint>", "offset": N}`,
 * where the fingerprint (search/keyset.ts queryFingerprint) hashes what decides the rows and their
 * order. A token given with another query, or tampered with, is INVALID_PARAMETER_VALUE.
 */
export function encodeQueryOffsetToken(fingerprint: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: fingerprint, offset }), "utf8").toString("base64url");
}

export function decodeQueryOffsetToken(token: string, fingerprint: string): number {
  const offset = decodeOffsetToken(token);
  const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { q?: unknown };
  if (parsed.q !== fingerprint)
    throw invalidParameter("Invalid page token: it belongs to another query (experiment_ids, filter or order_by)");
  return offset;
}
