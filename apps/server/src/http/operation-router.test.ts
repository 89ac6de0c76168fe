import fs from "node:fs";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { describe, expect, it } from "vitest";
import { documentedRoutes, operationRouter } from "./operation-router.js";
import { SPEC_ORDER, specPath, type SpecName } from "./revisions.js";

const documentOf = (spec: SpecName) => JSON.parse(fs.readFileSync(specPath(spec), "utf8"));

describe("operationRouter", () => {
  const route = operationRouter();

  it("finds the document of a request as the chain of validators would", () => {
    expect(route("POST", "/api/2.0/tracker/runs/log-metric")).toBe("c");
    expect(route("GET", "/api/2.0/tracker/runs/get")).toBe("c");
    expect(route("POST", "/api/2.0/preview/tracker/runs/log-metric")).toBe("b");
    expect(route("GET", "/health")).toBe("ext");
    expect(route("GET", "/api/2.0/tracker/logged-models/m-1")).toBe("ext");
    expect(route("POST", "/api/2.0/tracker/users/create")).toBe("auth");
  });

  it("finds nothing for an unknown path or method, which then goes through every document", () => {
    expect(route("GET", "/api/2.0/tracker/runs/log-metric")).toBeUndefined();
    expect(route("POST", "/api/2.0/tracker/nope")).toBeUndefined();
  });

  it("never has to choose between two documents: routes of different documents overlap only when equal", () => {
    const trees = SPEC_ORDER.map((spec) => {
      const tree = FindMyWay();
      const routes = documentedRoutes(documentOf(spec));
      for (const { method, route } of routes) tree.on(method, route, () => undefined, { route });
      return { spec, tree, routes };
    });
    const overlaps: string[] = [];
    for (const later of trees) {
      for (const earlier of trees.slice(0, trees.indexOf(later))) {
        for (const { method, route } of later.routes) {
          const sample = route.replace(/:[^/]+/g, "x");
          const found = earlier.tree.findRoute(method as HTTPMethod, sample);
          if (found && (found.store as { route: string }).route !== route)
            overlaps.push(
              `${method} ${route} (${later.spec}) ~ ${(found.store as { route: string }).route} (${earlier.spec})`,
            );
        }
      }
    }
    expect(overlaps).toEqual([]);
  });
});
