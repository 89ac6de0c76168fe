import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { cacheValidatorRouteCompilation } from "./route-match-cache.js";

describe("cacheValidatorRouteCompilation", () => {
  it("makes the validator's path-to-regexp compile each route once and match as before", () => {
    expect(cacheValidatorRouteCompilation()).toBe(true);
    expect(cacheValidatorRouteCompilation()).toBe(true);
    const require = createRequire(import.meta.url);
    const metadata = require.resolve("express-openapi-validator/dist/middlewares/openapi.metadata.js");
    const { pathToRegexp } = createRequire(metadata)("path-to-regexp") as {
      pathToRegexp: (p: string, o?: object) => { regexp: RegExp; keys: Array<{ name: string }> };
    };
    const first = pathToRegexp("/api/2.0/tracker/runs/:id", { sensitive: false, strict: false });
    expect(pathToRegexp("/api/2.0/tracker/runs/:id", { sensitive: false, strict: false })).toBe(first);
    expect(pathToRegexp("/api/2.0/tracker/runs/:id", { sensitive: true, strict: false })).not.toBe(first);
    expect(first.regexp.exec("/API/2.0/tracker/runs/abc/")?.[1]).toBe("abc");
    expect(first.keys.map((k) => k.name)).toEqual(["id"]);
  });
});
