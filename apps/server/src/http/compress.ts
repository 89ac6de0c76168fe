import compression from "compression";
import type { Request, RequestHandler, Response } from "express";

/**
 * Artifact files (the browser endpoints `/get-artifact`, `/model-versions/get-artifact` and the
 * artifact service's `.../mlflow-artifacts/...`, under /api or /ajax-api): served with byte ranges
 * and their own sizes by `send`, never re-encoded.
 */
const ARTIFACT_FILE = /(^|\/)(get-artifact|mlflow-artifacts)(\/|$)/;

/** Whether a response is compressed: not artifact files (ranges, sizes) nor ranged requests; else compression's own rule (compressible types). */
export function shouldCompress(req: Request, res: Response): boolean {
  if (req.headers.range !== undefined) return false;
  if (ARTIFACT_FILE.test(req.path)) return false;
  return compression.filter(req, res);
}

/**
 * gzip / brotli / deflate, as the client accepts, for JSON answers and the web UI's scripts and
 * styles (responses of at least 1 KB: smaller ones gain nothing).
 */
export function compressResponses(): RequestHandler {
  return compression({ filter: shouldCompress, threshold: 1024 });
}
