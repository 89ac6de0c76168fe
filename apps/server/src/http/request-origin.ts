import type { Response } from "express";

/**
 * What the client asked for, before normaliseRequest rewrote the URL to the canonical form the
 * spec files describe: messages name the path the client requested, and requests that came
 * through MLflow's paths (the segment `mlflow`) get MLflow 2.x's answers (see README,
 * "Compatibility with MLflow clients").
 */
export interface RequestOrigin {
  /** The path as requested, without the query string. */
  path: string;
  /** True when the path used the segment `mlflow` (`/api/2.0/mlflow/...`, `/ajax-api/2.0/preview/mlflow/...`). */
  mlflow: boolean;
}

const MLFLOW_PATH = /^\/(ajax-)?api\/2\.0\/(preview\/)?mlflow\//;

export function originOfUrl(url: string): RequestOrigin {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return { path, mlflow: MLFLOW_PATH.test(path) };
}

export function rememberOrigin(res: Response, origin: RequestOrigin): void {
  res.locals.requestOrigin = origin;
}

/** The origin remembered for this request (the current path when none was). */
export function originOf(res: Response): RequestOrigin {
  const origin = res.locals.requestOrigin as RequestOrigin | undefined;
  return origin ?? originOfUrl(res.req.originalUrl);
}
