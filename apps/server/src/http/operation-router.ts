import fs from "node:fs";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { SPEC_ORDER, specPath, type SpecName } from "./revisions.js";

/**
 * Which document answers a request, found once by (method, path) in a radix tree (find-my-way) of
 * every documented operation, so that a request meets only its own document's validator instead of
 * passing each document's in SPEC_ORDER (each walking its every path). A path is claimed by the
 * first document in SPEC_ORDER that documents it for that method, as the chain of validators would
 * have it; no two documents' routes overlap otherwise (operation-router.test.ts checks this on the
 * real documents). A request the tree does not find (an unknown path, or one the validators'
 * looser matching would still take: another letter case, a trailing slash) goes through every
 * document in order, as before.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** A document's operations as (method, full path with `:param` segments) pairs. */
export function documentedRoutes(document: JsonObject): Array<{ method: HTTPMethod; route: string }> {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const first = servers[0];
  const base = (
    first && typeof first === "object" && !Array.isArray(first) && typeof first.url === "string" ? first.url : ""
  ).replace(/\/+$/, "");
  const paths =
    document.paths && typeof document.paths === "object" && !Array.isArray(document.paths) ? document.paths : {};
  const routes: Array<{ method: HTTPMethod; route: string }> = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!item || typeof item !== "object" || Array.isArray(item)) continue;
    const route = `${base}${path}`.replace(/\{([^}]+)\}/g, ":$1");
    for (const method of Object.keys(item)) {
      if (METHODS.has(method)) routes.push({ method: method.toUpperCase() as HTTPMethod, route });
    }
  }
  return routes;
}

export type OperationRouter = (method: string, path: string) => SpecName | undefined;

/** The router over the given documents (by default the bundled ones), in SPEC_ORDER. */
export function operationRouter(
  documents: (spec: SpecName) => JsonObject = (spec) => JSON.parse(fs.readFileSync(specPath(spec), "utf8")),
): OperationRouter {
  const tree = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false });
  for (const spec of SPEC_ORDER) {
    for (const { method, route } of documentedRoutes(documents(spec))) {
      if (!tree.hasRoute(method, route)) tree.on(method, route, () => undefined, { spec });
    }
  }
  return (method, path) => {
    const found = tree.find(method as HTTPMethod, path);
    return found ? (found.store as { spec: SpecName }).spec : undefined;
  };
}
