import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { shareApiDocumentCheck } from "./api-document-check.js";
import { mlflowDocument } from "./mlflow-documents.js";
import { SPEC_ORDER, specPath } from "./revisions.js";
import { lookUpSchemaRefsWithoutCompiling, ORIGINAL, schemaPreprocessorClass } from "./schema-ref-lookup.js";

type PreprocessorClass = {
  new (
    document: unknown,
    options: object,
    responses: false,
  ): { preProcess(): { apiDoc: unknown }; resolveSchema: (schema: unknown) => unknown };
  prototype: { resolveSchema: unknown };
};

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

/** The Ajv options the validator gives its preprocessor (with the defaults it fills in). */
function preprocessorOptions(): object {
  const require = createRequire(import.meta.url);
  const { OpenApiValidator } = require("express-openapi-validator/dist/openapi.validator.js") as {
    OpenApiValidator: new (options: object) => { ajvOpts: { preprocessor: object } };
  };
  return new OpenApiValidator({ apiSpec: "unused.json", validateResponses: false }).ajvOpts.preprocessor;
}

describe("lookUpSchemaRefsWithoutCompiling", () => {
  it("prepares every document (and MLflow's copies) exactly as the validator's own $ref resolution does", () => {
    expect(lookUpSchemaRefsWithoutCompiling()).toBe(true);
    expect(lookUpSchemaRefsWithoutCompiling()).toBe(true);
    const Preprocessor = schemaPreprocessorClass() as unknown as PreprocessorClass;
    const resolveSchema = Preprocessor.prototype.resolveSchema as { [ORIGINAL]?: unknown };
    const original = resolveSchema[ORIGINAL];
    expect(typeof original).toBe("function");
    const documents = SPEC_ORDER.flatMap((spec) => [
      [spec, JSON.parse(fs.readFileSync(specPath(spec), "utf8"))],
      [`${spec} (MLflow)`, mlflowDocument(spec)],
    ]);
    for (const [name, document] of documents) {
      const options = preprocessorOptions();
      const lookedUp = new Preprocessor(structuredClone(document), options, false).preProcess();
      const own = new Preprocessor(structuredClone(document), options, false);
      own.resolveSchema = original as (schema: unknown) => unknown;
      expect(lookedUp, name).toEqual(own.preProcess());
    }
  });
});
