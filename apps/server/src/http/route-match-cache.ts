import { createRequire } from "node:module";

/**
 * express-openapi-validator 5.6 matches a request to its operation by compiling, on every request,
 * each documented path of the document with path-to-regexp until one matches
 * (dist/middlewares/openapi.metadata.js, lookupRoute): with some sixty paths a document, that was
 * the largest single cost of a small request. The compiled pattern depends only on the path and
 * the options, so this memoizes path-to-regexp's `pathToRegexp` as the validator resolves it: every
 * path is compiled once, the first time it is tried, and matched with the same regular expression
 * afterwards (the validator's own matching rules are untouched). The validator reads
 * `pathToRegexp` from the module object at call time, so replacing the export takes effect.
 *
 * Safe with several server processes over one database: it holds compiled route patterns of the
 * spec files shipped with this build, never data, so no other process's write can make it stale.
 */

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };

const CACHED = Symbol.for("tracker.pathToRegexpCache");

/** The path-to-regexp module object the validator's route matching uses. */
function validatorPathToRegexpModule(): { pathToRegexp: PathToRegexp & { [CACHED]?: true } } {
  const require = createRequire(import.meta.url);
  const metadata = require.resolve("express-openapi-validator/dist/middlewares/openapi.metadata.js");
  return createRequire(metadata)("path-to-regexp") as { pathToRegexp: PathToRegexp & { [CACHED]?: true } };
}

/** Whether the options have no keys but `sensitive` and `strict` (no array built: called per path and request). */
function onlySensitiveAndStrict(options: Record<string, unknown>): boolean {
  for (const key in options) if (key !== "sensitive" && key !== "strict") return false;
  return true;
}

/** Installs the memo once per process; returns whether it is in place. */
export function cacheValidatorRouteCompilation(): boolean {
  const mod = validatorPathToRegexpModule();
  if (mod.pathToRegexp[CACHED]) return true;
  const compile = mod.pathToRegexp;
  // One map per combination of the two options, keyed by the path itself: the validator passes the
  // same path strings (its route map's keys) on every request, whose hashes V8 keeps, so a lookup
  // builds no key.
  const caches = [0, 1, 2, 3].map(() => new Map<string, ReturnType<PathToRegexp>>());
  const cached = Object.assign(
    (path: string, options?: Record<string, unknown>) => {
      // Only string paths with the options the validator passes are memoized; anything else goes
      // straight through.
      if (typeof path !== "string" || (options !== undefined && !onlySensitiveAndStrict(options))) {
        return compile(path, options);
      }
      const cache = caches[(options?.sensitive === true ? 2 : 0) + (options?.strict === true ? 1 : 0)];
      let hit = cache.get(path);
      if (!hit) {
        hit = compile(path, options);
        cache.set(path, hit);
      }
      return hit;
    },
    { [CACHED]: true as const },
  );
  mod.pathToRegexp = cached;
  return validatorPathToRegexpModule().pathToRegexp === cached;
}
