import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { mlflowDocument, mlflowDocumentDiffers } from "./mlflow-documents.js";
import { isDeepStrictEqual } from "node:util";
import { SPEC_ORDER, specPath } from "./revisions.js";

type Schema = { maxLength?: number; properties?: Record<string, Schema> };
const schemasOf = (doc: unknown) => (doc as { components: { schemas: Record<string, Schema> } }).components.schemas;

describe("mlflowDocument", () => {
  it("drops the length bounds of param and tag values only, and leaves the spec file as it is", () => {
    const before = fs.readFileSync(specPath("c"), "utf8");
    const original = schemasOf(JSON.parse(before));
    const relaxed = schemasOf(mlflowDocument("c"));
    expect(original.LogBatchParam.properties?.value.maxLength).toBe(250);
    expect(relaxed.LogBatchParam.properties?.value.maxLength).toBeUndefined();
    expect(relaxed.LogBatchTag.properties?.value.maxLength).toBeUndefined();
    expect(original.TagValue.maxLength).toBe(5000);
    expect(relaxed.TagValue.maxLength).toBeUndefined();
    // Keys, names and ids keep their bounds.
    expect(relaxed.EntityKey.maxLength).toBe(250);
    expect(relaxed.ExperimentName.maxLength).toBe(500);
    expect(relaxed.ExperimentId.maxLength).toBe(19);
    expect(fs.readFileSync(specPath("c"), "utf8")).toBe(before);
  });
});

describe("mlflowDocumentDiffers", () => {
  it("says whether the relaxed copy differs from the document: only then do MLflow's paths get a validator of their own", () => {
    for (const spec of SPEC_ORDER) {
      const same = isDeepStrictEqual(JSON.parse(fs.readFileSync(specPath(spec), "utf8")), mlflowDocument(spec));
      expect(mlflowDocumentDiffers(spec), spec).toBe(!same);
    }
    expect(SPEC_ORDER.filter(mlflowDocumentDiffers)).toEqual(["c", "b", "a"]);
  });
});
