import type { Request, RequestHandler } from "express";
import type { TrackerConfig } from "../config/config.js";
import { sendError } from "./error-handler.js";

/**
 * How the artifact service's requests reach the validator and the handlers:
 * - an artifact path spans several URL segments (`/api/2.0/mlflow-artifacts/artifacts/1/<run>/artifacts/a.csv`),
 *   which an OpenAPI path parameter cannot; the path is decoded here (as MLflow's server does,
 *   so `%2F` is `/`) and re-encoded as the single segment the spec's `{artifact_path}` matches;
 * - upload bodies are raw bytes, never parsed as JSON;
 * - the service is off with `--no-serve-artifacts` (503), and an `--artifacts-only` server answers
 *   503 to everything else.
 */

export const ARTIFACTS_PREFIX = "/api/2.0/mlflow-artifacts/artifacts";
const SERVICE_PREFIX = "/api/2.0/mlflow-artifacts";

/** Routes whose tail is an artifact path: files, MLflow's multipart uploads and presigned downloads. */
const PATH_PREFIXES = [
  ARTIFACTS_PREFIX,
  `${SERVICE_PREFIX}/mpu/create`,
  `${SERVICE_PREFIX}/mpu/complete`,
  `${SERVICE_PREFIX}/mpu/abort`,
  `${SERVICE_PREFIX}/presigned`,
];

function decodeSegments(raw: string): string | undefined {
  try {
    return raw
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    return undefined;
  }
}

/** Rewrites `<prefix>/<a>/<b>` to `<prefix>/<encodeURIComponent("a/b")>` (after normaliseRequest). */
export function artifactPathAsOneSegment(): RequestHandler {
  return (req, res, next) => {
    const q = req.url.indexOf("?");
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    const prefix = PATH_PREFIXES.find((p) => pathname.startsWith(`${p}/`));
    if (!prefix) {
      next();
      return;
    }
    const decoded = decodeSegments(pathname.slice(prefix.length + 1));
    if (decoded === undefined) {
      sendError(res, "INVALID_PARAMETER_VALUE", "Invalid artifact path: malformed percent-encoding");
      return;
    }
    // Empty names (a trailing slash, as `mlflow gc` sends) are dropped; an empty path stays empty.
    const joined = decoded
      .split("/")
      .filter((name) => name !== "")
      .join("/");
    req.url = `${prefix}/${encodeURIComponent(joined)}${q === -1 ? "" : req.url.slice(q)}`;
    req.originalUrl = req.url;
    next();
  };
}

export const isArtifactRequest = (req: Request): boolean =>
  req.path === SERVICE_PREFIX || req.path.startsWith(`${SERVICE_PREFIX}/`);

/** A PUT of an artifact file: its body is the file, read by the handler alone. */
export const isArtifactUpload = (req: Request): boolean =>
  req.method === "PUT" && req.path.startsWith(`${ARTIFACTS_PREFIX}/`);

/** Paths of an `--artifacts-only` server that stay open besides the artifact API. */
const OPEN_WHEN_ARTIFACTS_ONLY =
  /^\/(health|get-artifact|docs)(\/|$)|^\/api\/(2\.0\/tracker|3\.0\/mlflow)\/server-info$/;

export function artifactServiceGate(config: TrackerConfig): RequestHandler {
  return (req, res, next) => {
    const artifactApi = isArtifactRequest(req);
    if (artifactApi && !config.serveArtifacts) {
      sendError(
        res,
        "TEMPORARILY_UNAVAILABLE",
        `Endpoint ${ARTIFACTS_PREFIX} is disabled: the server runs with --no-serve-artifacts`,
      );
      return;
    }
    if (config.artifactsOnly && !artifactApi && !OPEN_WHEN_ARTIFACTS_ONLY.test(req.path)) {
      sendError(
        res,
        "TEMPORARILY_UNAVAILABLE",
        `Endpoint ${req.path} is disabled: the server runs with --artifacts-only`,
      );
      return;
    }
    next();
  };
}
