import { createHash, timingSafeEqual } from "node:crypto";
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { sendError } from "./error-handler.js";

/**
 * Request hardening shared by every revision: security headers, the optional bearer token
 * (TRACKER_AUTH_TOKEN), a UTF-8 check of JSON bodies and a ban on NUL characters in any input.
 */

/**
 * Security headers (helmet) for a JSON API that also streams artifact files: nothing served here
 * may run scripts, load resources or be framed, whatever its content type.
 */
export function securityHeaders(): RequestHandler {
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      },
      // Artifacts and API answers are for this origin's clients, not for embedding elsewhere.
      crossOriginResourcePolicy: { policy: "same-origin" },
      referrerPolicy: { policy: "no-referrer" },
      xFrameOptions: { action: "deny" },
    }) as RequestHandler,
  );
  // The headers do not depend on the request: helmet works them out once, here, and each request
  // only gets them set (helmet's own per-request work was several percent of a small request).
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The headers a middleware that only sets static headers sets, found by running it once. */
function headersSetBy(middleware: RequestHandler): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name, String(value)]);
      return recorder;
    },
    removeHeader() {},
  };
  let done = false;
  const call = middleware as unknown as (req: object, res: object, next: (err?: unknown) => void) => void;
  call({ headers: {} }, recorder, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error("the security-header middleware did not finish synchronously");
  return headers;
}

/** Paths that stay open when authentication is on: the health probes of orchestrators and load balancers. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(["/health", "/health/live", "/health/ready"]);

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** Compares two secrets in time that does not depend on where they differ (or on their lengths). */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Optional bearer-token authentication. Without a token every request passes. With one, every
 * request except OPEN_PATHS must carry `Authorization: Bearer <token>`; anything else is answered
 * 401 UNAUTHENTICATED (with `WWW-Authenticate: Bearer`) before its body is read.
 */
export function bearerAuth(token: string | undefined): RequestHandler {
  const expected = token?.trim();
  if (!expected) return (_req, _res, next) => next();
  return (req, res, next) => {
    if (OPEN_PATHS.has(req.path)) {
      next();
      return;
    }
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer[ \t]+(.*)$/i.exec(header);
    const given = match?.[1]?.trim() ?? "";
    // Always hash and compare, so a missing header costs the same as a wrong one.
    const ok = tokensMatch(given, expected) && match !== null && given !== "";
    if (ok) {
      next();
      return;
    }
    res.setHeader(
      "WWW-Authenticate",
      header === undefined ? 'Bearer realm="tracker"' : 'Bearer realm="tracker", error="invalid_token"',
    );
    sendError(
      res,
      "UNAUTHENTICATED",
      header === undefined
        ? "Authentication required: send the header 'Authorization: Bearer <token>'"
        : "Invalid credentials: the Authorization header does not carry the server's bearer token",
    );
  };
}

/** The error body-parser reports when verifyUtf8 refuses a body (mapped to 400 BAD_REQUEST). */
export class InvalidUtf8Error extends Error {
  readonly status = 400;
  readonly type = "encoding.invalid.utf8";
  constructor() {
    super("Request body is not valid UTF-8 (JSON bodies must be UTF-8)");
  }
}

/**
 * `verify` hook of express.json: a body declared (or defaulted) as UTF-8 must be valid UTF-8, so
 * invalid byte sequences are refused instead of being turned silently into U+FFFD.
 */
export function verifyUtf8(_req: IncomingMessage, _res: unknown, buf: Buffer, encoding: string): void {
  // Only UTF-8 is JSON's interchange encoding (RFC 8259): a body declared as UTF-16 is refused too,
  // rather than decoded into something else (one byte of UTF-16 decodes to nothing, read as {}).
  if (!/^utf-?8$/i.test(encoding) || !isUtf8(buf)) throw new InvalidUtf8Error();
}

/**
 * A UTF-16 surrogate without its pair (JSON `"\ud800"`): no Unicode character, so neither UTF-8
 * nor PostgreSQL can hold it; it would be stored as U+FFFD without a word. (With the `u` flag a
 * well-formed pair is one code point and does not match.)
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What inspectJsonValues found: the field (`tags.0.value`) and what is wrong with it. */
export interface UnstorableText {
  where: string;
  problem: "a NUL character" | "a lone UTF-16 surrogate, which is not a Unicode character";
}

function unstorable(text: string): UnstorableText["problem"] | undefined {
  if (text.includes("\u0000")) return "a NUL character";
  if (LONE_SURROGATE.test(text)) return "a lone UTF-16 surrogate, which is not a Unicode character";
  return undefined;
}

/** A key as a message may quote it. */
const shownKey = (key: string) =>
  key.replaceAll("\u0000", "\\u0000").replace(/[\uD800-\uDFFF]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/**
 * Walks a parsed JSON value or query object (iteratively: deeply nested bodies cannot overflow the
 * stack) and returns the first string or key that cannot be stored as text (a NUL character, a
 * lone surrogate), or undefined. On the way it rewrites numbers too large for a double (JSON
 * `1e400`, which JSON.parse turns into Infinity) as the strings "Infinity" / "-Infinity": protobuf's
 * JSON mapping for those values, which the schemas accept where a double may be infinite and refuse
 * everywhere else.
 */
export function inspectJsonValues(root: unknown): UnstorableText | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: "" }];
  const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      const problem = unstorable(value);
      if (problem) return { where: path || "body", problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        if (typeof value[i] === "number" && !Number.isFinite(value[i])) value[i] = String(value[i]);
        stack.push({ value: value[i], path: join(path, String(i)) });
      }
    } else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const problem = unstorable(key);
        if (problem) return { where: join(path, shownKey(key)), problem };
        if (typeof record[key] === "number" && !Number.isFinite(record[key])) record[key] = String(record[key]);
        stack.push({ value: record[key], path: join(path, key) });
      }
    }
  }
  return undefined;
}

/**
 * Refuses any request whose query string or body holds text that cannot be stored: a NUL character
 * (PostgreSQL cannot store one in text, and no file-system path or name may hold one) or a lone
 * surrogate. 400 INVALID_PARAMETER_VALUE. (Also normalises overflowing numbers, see inspectJsonValues.)
 */
export function rejectNulCharacters(): RequestHandler {
  return (req, res, next) => {
    const found = inspectJsonValues(req.query) ?? inspectJsonValues(req.body);
    if (found === undefined) {
      next();
      return;
    }
    sendError(res, "INVALID_PARAMETER_VALUE", `Invalid value for '${found.where}': it contains ${found.problem}`);
  };
}

/**
 * Answers requests Node's HTTP parser refuses before Express sees them (request line or headers
 * over 16 KB, malformed HTTP) with the API's JSON error body instead of Node's bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const message =
      err.code === "HPE_HEADER_OVERFLOW"
        ? "The request line or headers are larger than the limit of 16 KB"
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "The request was not received in time"
          : "Malformed HTTP request";
    const body = JSON.stringify({ error_code: "BAD_REQUEST", message });
    socket.end(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
