import type { RunWithInputs } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import {
  datasetClause,
  datasetLabel,
  datasetsText,
  decodeDatasetChoice,
  encodeDatasetChoice,
  runDatasets,
  withDatasetFilter,
} from "./datasets";

const run = {
  info: {},
  data: { metrics: [], params: [], tags: [] },
  inputs: {
    dataset_inputs: [
      {
        tags: [{ key: "mlflow.data.context", value: "training" }],
        dataset: { name: "train", digest: "3f2a91c0aa", source_type: "local", source: "{}" },
      },
      { dataset: { name: "eval", digest: "", source_type: "s3", source: "s3://b/e" } },
    ],
  },
} as unknown as RunWithInputs;

describe("run datasets", () => {
  it("reads name, digest, context and source of each input", () => {
    expect(runDatasets(run)).toEqual([
      { name: "train", digest: "3f2a91c0aa", context: "training", sourceType: "local", source: "{}" },
      { name: "eval", digest: "", context: "", sourceType: "s3", source: "s3://b/e" },
    ]);
    expect(datasetsText(run)).toBe("train (3f2a91c0) · training; eval");
    expect(datasetLabel({ name: "x", digest: "d" })).toBe("x (d)");
    expect(runDatasets({ ...run, inputs: undefined })).toEqual([]);
  });

  it("builds the filter clause, quoting values, and joins it to the user's filter", () => {
    expect(datasetClause({ name: "train", digest: "abc", context: "training" })).toBe(
      "dataset.name = 'train' AND dataset.digest = 'abc' AND dataset.context = 'training'",
    );
    expect(datasetClause({ name: "it's", digest: "d" })).toBe(`dataset.name = "it's" AND dataset.digest = 'd'`);
    expect(datasetClause({ name: `a'b"c`, digest: "d" })).toBeUndefined();
    expect(withDatasetFilter(" metrics.acc > 0.5 ", { name: "n", digest: "d" })).toBe(
      "metrics.acc > 0.5 AND dataset.name = 'n' AND dataset.digest = 'd'",
    );
    expect(withDatasetFilter("", undefined)).toBe("");
  });

  it("keeps the chosen dataset in the URL and ignores a mangled value", () => {
    const text = encodeDatasetChoice({ name: "n,1", digest: "d", context: "c" });
    expect(decodeDatasetChoice(text)).toEqual({ name: "n,1", digest: "d", context: "c" });
    expect(decodeDatasetChoice(encodeDatasetChoice({ name: "n", digest: "d" }))).toEqual({ name: "n", digest: "d" });
    expect(decodeDatasetChoice("{oops")).toBeUndefined();
    expect(decodeDatasetChoice('["a"]')).toBeUndefined();
  });
});
