import type { RequestHandler } from "express";

/**
 * Rewrites the aliases to the canonical path the spec files use (`/api/2.0/tracker/...`):
 * `/ajax-api/` for `/api/`, and the namespace segment or `mlflow` for `tracker`.
 */
export function pathAliases(namespace: string): RequestHandler {
  const segments = new Set(["mlflow", namespace]);
  segments.delete("tracker");
  const pattern = new RegExp(`^/(api|ajax-api)/2\\.0/(preview/)?(${[...segments].join("|") || "tracker"})(?=/)`);
  return (req, _res, next) => {
    const rewrite = (url: string) => url.replace(/^\/ajax-api\//, "/api/").replace(pattern, (_m, _api, preview) => `/api/2.0/${preview ?? ""}tracker`);
    req.url = rewrite(req.url);
    req.originalUrl = rewrite(req.originalUrl);
    next();
  };
}
