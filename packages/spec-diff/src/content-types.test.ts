import { describe, expect, it } from "vitest";
import { diffDocuments } from "./diff.js";
import type { OpenApiDocument } from "./json.js";
import { mapMediaTypes } from "./media-types.js";

/** An operation whose file response offers `*` + `/` + `*` beside other types, and an error response. */
const doc = (errorCodes: string[]): OpenApiDocument => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {
    "/file": {
      get: {
        operationId: "getFile",
        responses: {
          "200": { $ref: "#/components/responses/File" },
          "404": {
            description: "missing",
            content: {
              "application/json": {
                schema: { type: "object", properties: { error_code: { type: "string", enum: errorCodes } } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    responses: {
      File: {
        description: "the file",
        content: {
          "application/octet-stream": { schema: { type: "string", format: "binary" } },
          "text/plain": { schema: { type: "string" } },
          "*/*": { schema: { type: "string", format: "binary" } },
        },
      },
    },
  },
});

describe("content types", () => {
  it("does not report an unchanged wildcard content type as removed and added when another response changes", () => {
    const report = diffDocuments(doc(["NOT_FOUND"]), doc(["NOT_FOUND", "PERMISSION_DENIED"]));
    const messages = report.operations.flatMap((op) => op.changes.map((c) => c.message));
    expect(messages.some((m) => m.includes("PERMISSION_DENIED"))).toBe(true);
    expect(messages.filter((m) => m.startsWith("content type"))).toEqual([]);
  });

  it("still reports a content type that is really removed", () => {
    const after = doc(["NOT_FOUND"]);
    const file = (after.components as { responses: { File: { content: Record<string, unknown> } } }).responses.File;
    delete file.content["*/*"];
    const report = diffDocuments(doc(["NOT_FOUND"]), after);
    const messages = report.operations.flatMap((op) => op.changes.map((c) => c.message));
    expect(messages).toContain("content type `*/*` removed");
  });
});

describe("mapMediaTypes", () => {
  it("pairs exact types first, so a wildcard beside them keeps its own pair", () => {
    const both = { "application/json": {}, "*/*": {} };
    expect(mapMediaTypes(both, both)).toEqual({
      added: [],
      removed: [],
      mapped: { "application/json": "application/json", "*/*": "*/*" },
    });
  });

  it("pairs by wildcard only with a type that is still free, ignoring parameters and case", () => {
    expect(
      mapMediaTypes(
        { "text/*": {}, "Application/JSON; charset=utf-8": {} },
        { "application/json": {}, "text/plain": {} },
      ),
    ).toEqual({
      added: [],
      removed: [],
      mapped: { "Application/JSON; charset=utf-8": "application/json", "text/*": "text/plain" },
    });
    expect(mapMediaTypes({ "image/png": {} }, { "application/json": {} })).toEqual({
      added: ["application/json"],
      removed: ["image/png"],
      mapped: {},
    });
  });
});
