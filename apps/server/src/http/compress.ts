import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import compression from "compression";
import type { Request, RequestHandler, Response } from "express";

/**
 * Artifact files (the browser endpoints `/get-artifact`, `/model-versions/get-artifact` and the
 * artifact service's `.../mlflow-artifacts/...`, under /api or /ajax-api): served with byte ranges
 * and their own sizes by `send`, never re-encoded.
 */
const ARTIFACT_FILE = /(^|\/)(get-artifact|mlflow-artifacts)(\/|$)/;

/** Responses of at least this many bytes are compressed; smaller ones gain nothing. */
const THRESHOLD = 1024;

/** Whether a response is compressed: not artifact files (ranges, sizes) nor ranged requests; else compression's own rule (compressible types). */
export function shouldCompress(req: Request, res: Response): boolean {
  if (req.headers.range !== undefined) return false;
  if (ARTIFACT_FILE.test(req.path)) return false;
  return compression.filter(req, res);
}

/**
 * The paths whose answers are written by `answerCompression`'s callers only (writeJson, the
 * streamed metric history, the plain-text version, the sign-in throttle): the API and the health
 * probes. Artifact files there are never compressed (shouldCompress) and need no step.
 */
const API_PATH = /^\/(api|ajax-api|health)(\/|$)/;

/** The compression middleware; it calls `next` before it returns. */
const compress = compression({ filter: shouldCompress, threshold: THRESHOLD });

/**
 * Brotli's quality for API answers: 2 instead of the middleware's 4, which the UI's files keep
 * (few, and cached for a year). Measured with node:zlib on tracker's JSON: a 430 KB answer of
 * metrics/get-history-bulk-interval (100 runs, 50 points each) took 8.7 ms instead of 15.3 ms and
 * came out smaller (47.6 KB, not 48.2 KB); a 655 KB page of 1,000 runs 20.5 ms instead of 42.1 ms
 * for 5% more (86 KB, not 82 KB). The charts view sends several such answers at once.
 */
export const API_BROTLI_QUALITY = 2;
const compressAnswer = compression({
  filter: shouldCompress,
  threshold: THRESHOLD,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: API_BROTLI_QUALITY } },
});
const noop = () => undefined;

/** Responses whose compression waits for their answer (answerCompression). */
const deferred = new WeakSet<ServerResponse>();

/** compression's rule for a `Cache-Control: no-transform` answer (left as it is). */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;

function transformable(res: ServerResponse): boolean {
  const cacheControl = res.getHeader("Cache-Control");
  return !cacheControl || !NO_TRANSFORM.test(String(cacheControl));
}

/**
 * gzip / brotli / deflate, as the client accepts, for JSON answers and the web UI's scripts and
 * styles (responses of at least 1 KB). The compression middleware wraps a response's `write`,
 * `end`, `on` and `writeHead` and listens for its 'close': work every API answer paid although
 * most are a few hundred bytes (`{}` for a write). So on the API's paths it is put in place only
 * when an answer is written (answerCompression) and may be compressed: one of 1 KB or more, or
 * a streamed one; the UI, the docs and everything else get it at once, as before.
 */
export function compressResponses(): RequestHandler {
  return (req, res, next) => {
    if (API_PATH.test(req.path)) {
      deferred.add(res);
      next();
      return;
    }
    compress(req, res, next);
  };
}

/**
 * Called before an API answer is written, with its length in bytes (undefined when streamed or
 * not known): the compression middleware is put in place when the answer may be compressed. A
 * smaller answer gets what that middleware would have given it, `Vary: Accept-Encoding` when its
 * type is compressible (it varies by the client's encodings, the same URL's larger answers being
 * compressed). Does nothing for a response the middleware already wraps or never saw.
 */
export function answerCompression(res: ServerResponse, length?: number): void {
  if (!deferred.has(res)) return;
  deferred.delete(res);
  const response = res as Response;
  const req = response.req;
  if (length === undefined || length >= THRESHOLD) {
    compressAnswer(req, response, noop);
    return;
  }
  if (shouldCompress(req, response) && transformable(res)) response.vary("Accept-Encoding");
}
