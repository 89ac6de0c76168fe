import type { RequestHandler } from "express";

/**
 * MLflow's server also accepts GET for experiments/search and get-latest-versions (revision C)
 * and for the preview runs/search; MLflow clients use it. Such a GET is served as the documented POST, with the
 * query string as the body (repeated keys and `k[]=` as arrays).
 */
const SEARCH_PATHS = new Set([
  "/api/2.0/tracker/experiments/search",
  "/api/2.0/preview/tracker/runs/search",
  "/api/2.0/tracker/registered-models/get-latest-versions",
]);
const ARRAY_FIELDS = new Set(["experiment_ids", "order_by", "anded_expressions", "stages"]);

export const searchByGet: RequestHandler = (req, _res, next) => {
  if (req.method === "GET" && SEARCH_PATHS.has(req.path)) {
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(req.query)) {
      body[key] = ARRAY_FIELDS.has(key) && !Array.isArray(value) ? [value] : value;
    }
    req.method = "POST";
    req.body = body;
    req.headers["content-type"] = "application/json";
    const q = req.originalUrl.indexOf("?");
    if (q !== -1) req.originalUrl = req.originalUrl.slice(0, q);
    const u = req.url.indexOf("?");
    if (u !== -1) req.url = req.url.slice(0, u);
  }
  next();
};
