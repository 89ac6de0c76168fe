import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { mlflowDocument } from "./mlflow-documents.js";
import { specPath } from "./revisions.js";

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
