import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { shareApiDocumentCheck } from "./api-document-check.js";

type Checker = { validate(document: unknown): { errors: unknown[] } };
type CheckerClass = new (options: { version: string; validateApiSpec: boolean }) => Checker;

describe("shareApiDocumentCheck", () => {
  it("makes the validator compile the OpenAPI schema once per version and still check every document", () => {
    expect(shareApiDocumentCheck()).toBe(true);
    expect(shareApiDocumentCheck()).toBe(true);
    const require = createRequire(import.meta.url);
    const { OpenAPISchemaValidator } =
      require("express-openapi-validator/dist/framework/openapi.schema.validator.js") as {
        OpenAPISchemaValidator: CheckerClass;
      };
    const first = new OpenAPISchemaValidator({ version: "3.0.3", validateApiSpec: true });
    expect(new OpenAPISchemaValidator({ version: "3.0.3", validateApiSpec: true })).toBe(first);
    expect(new OpenAPISchemaValidator({ version: "3.0.3", validateApiSpec: false })).not.toBe(first);
    const valid = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {} };
    expect(first.validate(valid).errors).toEqual([]);
    expect(first.validate({ openapi: "3.0.3", paths: {} }).errors.length).toBeGreaterThan(0);
    expect(first.validate(valid).errors).toEqual([]);
  });
});
