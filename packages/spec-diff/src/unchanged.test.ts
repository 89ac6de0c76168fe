import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./json.js";
import { withoutUnchangedPaths } from "./unchanged.js";

const doc = (idType: string, extra: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: "3.1.0",
  paths: {
    "/a": { get: { responses: { "200": { $ref: "#/components/responses/Thing" } } } },
    "/b": { get: { responses: { "200": { description: "b" } } } },
    ...extra,
  },
  components: {
    responses: {
      Thing: { description: "t", content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } },
    },
    schemas: {
      Node: { type: "object", properties: { id: { type: idType }, next: { $ref: "#/components/schemas/Node" } } },
    },
  },
});

describe("withoutUnchangedPaths", () => {
  it("leaves out path items equal on both sides, following $refs (recursive ones included)", () => {
    const same = withoutUnchangedPaths(doc("string"), doc("string"));
    expect(Object.keys(same.before.paths as object)).toEqual([]);
    const changed = withoutUnchangedPaths(doc("string"), doc("integer", { "/c": { get: {} } }));
    expect(Object.keys(changed.before.paths as object)).toEqual(["/a"]);
    expect(Object.keys(changed.after.paths as object)).toEqual(["/a", "/c"]);
  });

  it("keeps a path whose schema differs only through a mutually recursive one compared earlier", () => {
    const mutual = (idType: string): OpenApiDocument => ({
      openapi: "3.1.0",
      paths: {
        "/x": {
          get: {
            responses: {
              "200": {
                description: "x",
                content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } },
              },
            },
          },
        },
        "/y": {
          get: {
            responses: {
              "200": {
                description: "y",
                content: { "application/json": { schema: { $ref: "#/components/schemas/B" } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" }, id: { type: idType } } },
          B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } },
        },
      },
    });
    const changed = withoutUnchangedPaths(mutual("string"), mutual("integer"));
    expect(Object.keys(changed.before.paths as object)).toEqual(["/x", "/y"]);
    expect(Object.keys(withoutUnchangedPaths(mutual("string"), mutual("string")).before.paths as object)).toEqual([]);
  });
});

describe("pruneComponents", () => {
  it("keeps the components reached from the paths, transitively, and the security schemes", async () => {
    const { pruneComponents } = await import("./unchanged.js");
    const pruned = pruneComponents({
      ...doc("string"),
      paths: { "/a": { get: { responses: { "200": { $ref: "#/components/responses/Thing" } } } } },
      components: {
        ...(doc("string").components as object),
        schemas: {
          ...((doc("string").components as { schemas: object }).schemas as object),
          Unused: { type: "string" },
        },
        securitySchemes: { token: { type: "http", scheme: "bearer" } },
      },
    });
    expect(pruned.components).toMatchObject({
      responses: { Thing: {} },
      schemas: { Node: {} },
      securitySchemes: { token: {} },
    });
    expect(Object.keys((pruned.components as { schemas: object }).schemas)).toEqual(["Node"]);
  });
});
