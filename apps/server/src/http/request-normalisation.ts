import type { RequestHandler } from "express";
import { originOfUrl, rememberOrigin } from "./request-origin.js";

/**
 * Brings a request to the canonical form the spec files describe, before validation:
 * - the aliases `/ajax-api/` for `/api/`, and the namespace segment or `mlflow` for `tracker`;
 * - the registry under either prefix, as MLflow 1.x serves it: `2.0/tracker/registered-models/...`
 *   and `.../model-versions/...` for the preview paths, and the preview get-latest-versions for
 *   `2.0/tracker/registered-models/get-latest-versions`;
 * - query arrays written `k[]=a` or `k[0]=a` become repeated keys `k=a` (MLflow's clients use
 *   all three), and every value is re-encoded strictly (`+` and raw reserved characters, which
 *   Python's `requests` sends, are decoded first), so the validator reads exactly the values.
 */
export function normaliseRequest(namespace: string): RequestHandler {
  const segments = new Set(["mlflow", namespace]);
  segments.delete("tracker");
  const segmentPattern = new RegExp(`^/api/2\\.0/(preview/)?(${[...segments].join("|")})(?=/)`);
  const rewrite = (url: string): string => {
    const q = url.indexOf("?");
    const pathname = registryAlias(
      (q === -1 ? url : url.slice(0, q))
        .replace(/^\/ajax-api\//, "/api/")
        .replace(segmentPattern, (_m, preview) => `/api/2.0/${preview ?? ""}tracker`),
    );
    if (q === -1) return pathname;
    return `${pathname}${canonicalQuery(url.slice(q + 1))}`;
  };
  return (req, res, next) => {
    rememberOrigin(res, originOfUrl(req.originalUrl));
    // At the top level both are the same text, rewritten once.
    const same = req.url === req.originalUrl;
    req.url = rewrite(req.url);
    req.originalUrl = same ? req.url : rewrite(req.originalUrl);
    next();
  };
}

const LATEST_VERSIONS = "/api/2.0/tracker/registered-models/get-latest-versions";

/** Registry operations of spec/ext.yaml: they live under `2.0/tracker` and answer under the preview prefix too. */
const EXT_REGISTRY_PATHS = new Set([
  "/api/2.0/tracker/registered-models/alias",
  "/api/2.0/tracker/registered-models/aliases",
]);

/** spec/auth.yaml's registered-models/permissions/* live under `2.0/tracker`, as MLflow serves them. */
const REGISTERED_MODEL_PERMISSIONS = "/api/2.0/tracker/registered-models/permissions/";

function registryAlias(pathname: string): string {
  const unpreviewed = pathname.replace("/api/2.0/preview/tracker/", "/api/2.0/tracker/");
  if (
    unpreviewed === LATEST_VERSIONS ||
    EXT_REGISTRY_PATHS.has(unpreviewed) ||
    unpreviewed.startsWith(REGISTERED_MODEL_PERMISSIONS)
  )
    return unpreviewed;
  if (/^\/api\/2\.0\/tracker\/(registered-models|model-versions)\//.test(pathname)) {
    return pathname.replace("/api/2.0/tracker/", "/api/2.0/preview/tracker/");
  }
  return pathname;
}

/** `k[]=a&k[1]=b&x=1+2` -> `?k=a&k=b&x=1%202`; malformed percent-escapes are kept as text. */
export function canonicalQuery(query: string): string {
  if (query === "") return "";
  const pairs: string[] = [];
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    const key = decode(rawKey).replace(/\[\d*\]$/, "");
    pairs.push(`${strictEncode(key)}=${strictEncode(decode(rawValue))}`);
  }
  return pairs.length ? `?${pairs.join("&")}` : "";
}

/** Percent-encodes every character outside RFC 3986's unreserved set. */
function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
