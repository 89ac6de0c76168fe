import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type RequestHandler } from "express";
import createError from "http-errors";
import onFinished from "on-finished";

/** `verify` hook of the JSON body reader, as body-parser calls it (a throw refuses the body). */
export type VerifyBody = (req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string) => void;

export interface JsonBodyOptions {
  /** Largest body in bytes (413 past it). */
  limit: number;
  verify: VerifyBody;
}

/** Bodies up to this many bytes (by their Content-Length) may take the short read. */
export const FAST_READ_LIMIT = 64 * 1024;

/** The Content-Types whose charset is UTF-8 with body-parser's content-type parsing (no charset: its default). */
const UTF8_JSON = /^application\/json(?:; *charset=utf-8)?$/i;
const DECIMAL = /^[0-9]{1,9}$/;

/** The declared length when the short read gives body-parser's result, otherwise undefined. */
export function shortReadLength(req: IncomingMessage, limit: number): number | undefined {
  const headers = req.headers;
  if (headers["transfer-encoding"] !== undefined) return undefined;
  const declared = headers["content-length"];
  if (declared === undefined || !DECIMAL.test(declared)) return undefined;
  const type = headers["content-type"];
  if (type !== undefined && !UTF8_JSON.test(type)) return undefined;
  const encoding = headers["content-encoding"];
  if (encoding !== undefined && encoding.toLowerCase() !== "identity") return undefined;
  const length = Number(declared);
  if (length > FAST_READ_LIMIT || length > limit || onFinished.isFinished(req)) return undefined;
  return length;
}

/** What body-parser does with a body it read (verify, decode, parse), for a UTF-8 body. */
function parseBody(req: IncomingMessage, res: ServerResponse, body: Buffer, verify: VerifyBody): Error | undefined {
  try {
    verify(req, res, body, "utf-8");
  } catch (err) {
    const type = (err as { type?: unknown }).type;
    return createError(403, err as Error, { body, type: typeof type === "string" ? type : "entity.verify.failed" });
  }
  // iconv-lite's UTF-8 decode, as body-parser's: a byte-order mark is dropped.
  let text = body.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    (req as IncomingMessage & { body?: unknown }).body = text.length === 0 ? {} : JSON.parse(text);
  } catch (err) {
    return createError(400, err as Error, { body: text, type: "entity.parse.failed" });
  }
  return undefined;
}

/**
 * express.json with `strict: false` and `type: () => true`, reading a small body (Content-Length
 * up to FAST_READ_LIMIT, no Content-Encoding, JSON in UTF-8 or no Content-Type) without raw-body,
 * iconv-lite, type-is and content-type parsing: for a 100-byte body these cost more than reading
 * it. The result is body-parser's: `req.body` as it sets it, and for a body it refuses the same
 * error (http-errors, with its status, type and properties: a verify refusal, a syntax error, an
 * aborted request), passed on once the request has ended as body-parser does. Any other request
 * (chunked, compressed, another charset, a larger body) goes to express.json itself.
 */
export function jsonBody({ limit, verify }: JsonBodyOptions): RequestHandler {
  const parser = express.json({ limit, type: () => true, strict: false, verify });
  return (req, res, next) => {
    const length = shortReadLength(req, limit);
    if (length === undefined) {
      parser(req, res, next);
      return;
    }
    if (!Reflect.has(req, "body")) req.body = undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let complete = false;
    const cleanup = (): void => {
      req.removeListener("aborted", onAborted);
      req.removeListener("data", onData);
      req.removeListener("end", onEnd);
      req.removeListener("error", onEnd);
      req.removeListener("close", cleanup);
    };
    // As raw-body and body-parser: stop reading, pass the error on when the request has ended.
    const fail = (err: Error): void => {
      complete = true;
      cleanup();
      req.unpipe();
      req.pause();
      const passOn = (): void => next(createError(400, err));
      if (onFinished.isFinished(req)) passOn();
      else {
        onFinished(req, passOn);
        req.resume();
      }
    };
    function onAborted(): void {
      if (complete) return;
      fail(
        createError(400, "request aborted", {
          code: "ECONNABORTED",
          expected: length,
          length,
          received,
          type: "request.aborted",
        }),
      );
    }
    function onData(chunk: Buffer): void {
      if (complete) return;
      received += chunk.length;
      if (received > limit)
        fail(createError(413, "request entity too large", { limit, received, type: "entity.too.large" }));
      else chunks.push(chunk);
    }
    function onEnd(err?: Error): void {
      if (complete) return;
      if (err) {
        fail(err);
        return;
      }
      if (received !== length) {
        fail(
          createError(400, "request size did not match content length", {
            expected: length,
            length,
            received,
            type: "request.size.invalid",
          }),
        );
        return;
      }
      complete = true;
      cleanup();
      const problem = parseBody(req, res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), verify);
      next(problem);
    }
    req.on("aborted", onAborted);
    req.on("close", cleanup);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onEnd);
  };
}
