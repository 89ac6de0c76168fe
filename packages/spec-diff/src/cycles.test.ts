import { describe, expect, it } from "vitest";
import { withoutCycles } from "./cycles.js";
import type { JsonObject, OpenApiDocument } from "./json.js";
import { normalise } from "./normalise.js";

describe("withoutCycles", () => {
  it("turns an edge back to an ancestor into a $ref to the ancestor's place, with the kept keys", () => {
    const node: JsonObject = { type: "object", "x-name": "Node", properties: {} };
    (node.properties as JsonObject).parent = node;
    const document: JsonObject = { paths: { "/a/b": { schema: node } } };
    expect(withoutCycles(document, { keep: ["x-name"] })).toEqual({
      paths: {
        "/a/b": {
          schema: {
            type: "object",
            "x-name": "Node",
            properties: { parent: { $ref: "#/paths/~1a~1b/schema", "x-name": "Node" } },
          },
        },
      },
    });
    expect(withoutCycles([node], { base: ["components"] })).toEqual([
      { type: "object", "x-name": "Node", properties: { parent: { $ref: "#/components/0" } } },
    ]);
  });

  it("returns a value without cycles as it is, shared objects included", () => {
    const shared = { type: "string" };
    const value: JsonObject = { a: shared, b: [shared, { c: shared }] };
    expect(withoutCycles(value)).toBe(value);
  });
});

describe("normalise of recursive schemas", () => {
  // allof-merge returns a cyclic object for a schema that refers to itself through allOf.
  const recursive = (schema: JsonObject): OpenApiDocument => ({
    openapi: "3.0.3",
    paths: {
      "/nodes": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
            },
          },
        },
      },
    },
    components: { schemas: { Node: { type: "object", properties: { name: { type: "string" }, next: schema } } } },
  });
  const self = { $ref: "#/components/schemas/Node" };

  it.each<[string, JsonObject]>([
    ["allOf", { allOf: [self, { description: "up" }] }],
    ["items with allOf", { type: "array", items: { allOf: [self], description: "below" } }],
    [
      "additionalProperties with allOf",
      { type: "object", additionalProperties: { allOf: [self, { description: "x" }] } },
    ],
    ["oneOf with allOf", { oneOf: [{ allOf: [self, { description: "x" }] }, { type: "string" }] }],
  ])("gives a document without cycles: %s", (_, schema) => {
    const { document } = normalise(recursive(schema));
    expect(() => JSON.stringify(document)).not.toThrow();
  });
});
