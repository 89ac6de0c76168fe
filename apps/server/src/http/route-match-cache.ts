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
 */

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };

const CACHED = Symbol.for("tracker.pathToRegexpCache");

/** The path-to-regexp module object the validator's route matching uses. */
function validatorPathToRegexpModule(): { pathToRegexp: PathToRegexp & { [CACHED]?: true } } {
  const require = createRequire(import.meta.url);
  const metadata = require.resolve("express-openapi-validator/dist/middlewares/openapi.metadata.js");
  return createRequire(metadata)("path-to-regexp") as { pathToRegexp: PathToRegexp & { [CACHED]?: true } };
}

/** Installs the memo once per process; returns whether it is in place. */
export function cacheValidatorRouteCompilation(): boolean {
  const mod = validatorPathToRegexpModule();
  if (mod.pathToRegexp[CACHED]) return true;
  const compile = mod.pathToRegexp;
  const cache = new Map<string, ReturnType<PathToRegexp>>();
  const cached = Object.assign(
    (path: string, options?: Record<string, unknown>) => {
      // Only string paths with the options the validator passes are memoized; anything else goes
      // straight through.
      if (
        typeof path !== "string" ||
        (options !== undefined && !Object.keys(options).every((k) => k === "sensitive" || k === "strict"))
      ) {
        return compile(path, options);
      }
      const key = `${options?.sensitive === true ? "s" : "-"}${options?.strict === true ? "s" : "-"}${path}`;
      let hit = cache.get(key);
      if (!hit) {
        hit = compile(path, options);
        cache.set(key, hit);
      }
      return hit;
    },
    { [CACHED]: true as const },
  );
  mod.pathToRegexp = cached;
  return validatorPathToRegexpModule().pathToRegexp === cached;
}
