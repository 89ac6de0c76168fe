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
