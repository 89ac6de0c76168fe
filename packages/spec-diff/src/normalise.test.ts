import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./json.js";
import { normalise } from "./normalise.js";

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
});
