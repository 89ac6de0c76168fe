import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./json.js";
import { keyOperations, mergeSchemas, normalise } from "./normalise.js";

const op = (operationId: string) => ({ get: { operationId, responses: { "200": { description: "ok" } } } });

describe("normalise", () => {
  it("keys operations by their path below the API prefix", () => {
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/2.0/preview/tracker/runs/get": op("getRun"),
        "/2.0/tracker/experiments/get": op("getExperiment"),
        "/health": op("health"),
      },
    };
    const { document, operations } = normalise(doc);
    expect(Object.keys(document.paths as object)).toEqual(["/runs/get", "/experiments/get", "/health"]);
    expect(operations.get("GET /runs/get")).toMatchObject({
      path: "/2.0/preview/tracker/runs/get",
      operationId: "getRun",
      method: "get",
    });
  });

  it("keeps the full paths of operations that would collide without their prefix", () => {
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: { "/2.0/preview/tracker/runs/get": op("getRunPreview"), "/2.0/tracker/runs/get": op("getRun") },
    };
    expect(Object.keys(normalise(doc).document.paths as object)).toEqual([
      "/2.0/preview/tracker/runs/get",
      "/2.0/tracker/runs/get",
    ]);
  });

  it("merges allOf and tags references to component schemas with their name", () => {
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {},
      components: {
        schemas: {
          Id: { type: "string", pattern: "^[0-9]+$" },
          Holder: {
            type: "object",
            properties: { id: { allOf: [{ $ref: "#/components/schemas/Id" }, { description: "The id." }] } },
          },
        },
      },
    };
    const merged = normalise(doc).document as { components: { schemas: { Holder: { properties: { id: object } } } } };
    expect(merged.components.schemas.Holder.properties.id).toEqual({
      type: "string",
      pattern: "^[0-9]+$",
      description: "The id.",
      "x-spec-diff-schema": "Id",
    });
  });

  it("leaves the operations the other side lacks out of the merge, as they were, in their place", () => {
    const holder = { allOf: [{ $ref: "#/components/schemas/Id" }, { description: "The id." }] };
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/things": {
          summary: "Things",
          get: { operationId: "getThing", parameters: [{ name: "id", in: "query", schema: holder }] },
          post: { operationId: "postThing", parameters: [{ name: "id", in: "query", schema: holder }] },
        },
      },
      components: { schemas: { Id: { type: "string" }, Unused: { allOf: [{ type: "string" }] } } },
    };
    const keyed = keyOperations(doc);
    const { document, operations } = mergeSchemas(keyed, (operation) => operation === "GET /things");
    const paths = document.paths as Record<string, Record<string, { parameters: Array<{ schema: object }> }>>;
    const item = paths["/things"] as Record<string, unknown>;
    expect(Object.keys(item)).toEqual(["summary", "get", "post"]);
    expect(paths["/things"]?.get?.parameters[0]?.schema).toEqual({
      type: "string",
      description: "The id.",
      "x-spec-diff-schema": "Id",
    });
    // Not merged: the operation as keyOperations gave it.
    expect(item.post).toBe((keyed.document.paths as Record<string, Record<string, unknown>>)["/things"]?.post);
    expect([...operations.keys()]).toEqual(["GET /things", "POST /things"]);
    // Components that only the operations left out use are not merged either.
    expect((document.components as { schemas: object }).schemas).not.toHaveProperty("Unused");
    expect(normalise(doc).document.components).toHaveProperty("schemas.Unused", { type: "string" });
  });
});
