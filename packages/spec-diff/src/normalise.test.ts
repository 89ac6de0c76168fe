import { describe, expect, it } from "vitest";
import { getAt, type JsonObject, type OpenApiDocument } from "./json.js";
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
      paths: {
        "/holders": {
          get: {
            parameters: [{ $ref: "#/components/parameters/HolderId" }],
            responses: {
              "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Holder" } } } },
            },
          },
        },
      },
      components: {
        parameters: { HolderId: { name: "id", in: "query", schema: { $ref: "#/components/schemas/Id" } } },
        schemas: {
          Id: { type: "string", pattern: "^[0-9]+$" },
          Holder: {
            type: "object",
            properties: { id: { allOf: [{ $ref: "#/components/schemas/Id" }, { description: "The id." }] } },
          },
          Unused: { allOf: [{ type: "string" }] },
        },
      },
    };
    const id = { type: "string", pattern: "^[0-9]+$", "x-spec-diff-schema": "Id" };
    const merged = normalise(doc).document;
    // A tagged reference has a sibling, so the merge inlines it where it is used.
    expect(
      getAt(merged, ["paths", "/holders", "get", "responses", "200", "content", "application/json", "schema"]),
    ).toEqual({
      type: "object",
      properties: { id: { ...id, description: "The id." } },
      "x-spec-diff-schema": "Holder",
    });
    // Components are merged where the rest of the document still references them (and what they
    // reference as written): HolderId and Id, not Holder (inlined) nor Unused.
    expect(merged.components).toEqual({
      parameters: { HolderId: { name: "id", in: "query", schema: id } },
      schemas: { Id: { type: "string", pattern: "^[0-9]+$" } },
    });
  });

  it("leaves the operations the other side lacks out of the merge, as they were, in their place", () => {
    const holder: JsonObject = { allOf: [{ $ref: "#/components/schemas/Id" }, { description: "The id." }] };
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/things": {
          summary: "Things",
          get: { operationId: "getThing", parameters: [{ name: "id", in: "query", schema: holder }] },
          post: { operationId: "postThing", parameters: [{ $ref: "#/components/parameters/PostOnly" }] },
        },
      },
      components: {
        parameters: { PostOnly: { name: "q", in: "query", schema: { allOf: [{ type: "string" }, { minLength: 1 }] } } },
        schemas: { Id: { type: "string" } },
      },
    };
    const keyed = keyOperations(doc);
    const { document, operations } = mergeSchemas(keyed, (operation) => operation === "GET /things");
    const item = getAt(document, ["paths", "/things"]) as JsonObject;
    expect(Object.keys(item)).toEqual(["summary", "get", "post"]);
    expect(getAt(item, ["get", "parameters", 0, "schema"])).toEqual({
      type: "string",
      description: "The id.",
      "x-spec-diff-schema": "Id",
    });
    // Not merged: the operation as keyOperations gave it.
    expect(item.post).toBe(getAt(keyed.document, ["paths", "/things", "post"]));
    expect([...operations.keys()]).toEqual(["GET /things", "POST /things"]);
    // Nor the components only the operations left out use.
    expect(document.components).toEqual({ parameters: {}, schemas: {} });
    expect(getAt(normalise(doc).document, ["components", "parameters", "PostOnly", "schema"])).toEqual({
      type: "string",
      minLength: 1,
    });
  });

  it("distributes the siblings of anyOf and oneOf into their items, as api-smart-diff's merge would", () => {
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/metrics": {
          get: {
            parameters: [
              {
                name: "value",
                in: "query",
                schema: { description: "A value.", anyOf: [{ type: "number" }, { type: "string" }] },
              },
              {
                name: "step",
                in: "query",
                schema: { minimum: 0, oneOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+$" }] },
              },
            ],
          },
        },
      },
    };
    const parameters = getAt(normalise(doc).document, ["paths", "/metrics", "get", "parameters"]);
    expect(parameters).toEqual([
      {
        name: "value",
        in: "query",
        schema: {
          anyOf: [
            { description: "A value.", type: "number" },
            { description: "A value.", type: "string" },
          ],
        },
      },
      {
        name: "step",
        in: "query",
        schema: {
          oneOf: [
            { minimum: 0, type: "integer" },
            { minimum: 0, type: "string", pattern: "^[0-9]+$" },
          ],
        },
      },
    ]);
  });
});
