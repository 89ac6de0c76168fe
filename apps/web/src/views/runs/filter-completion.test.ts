import { describe, expect, it } from "vitest";
import { RUN_SEARCH_ATTRIBUTES } from "@tracker-ml/client";
import { applyCompletion, completeFilter } from "./filter-completion";

const keys = { metrics: ["accuracy", "auc", "val loss"], params: ["lr"], tags: ["team"] };

describe("filter key completion", () => {
  it("offers the prefixes for a bare word", () => {
    expect(completeFilter("met", 3, keys)?.options).toEqual(["metrics."]);
  });
  it("offers the keys of the kind being typed, quoting where needed", () => {
    const text = "params.lr = '1' AND metrics.a";
    const c = completeFilter(text, text.length, keys)!;
    expect(c.options).toEqual(["metrics.accuracy", "metrics.auc"]);
    expect(applyCompletion(text, c, "metrics.auc")).toEqual({
      text: "params.lr = '1' AND metrics.auc",
      cursor: text.length + 2,
    });
    expect(completeFilter("metrics.v", 9, keys)?.options).toEqual(["metrics.`val loss`"]);
  });
  it("completes in the middle of the text, replacing the whole word", () => {
    const text = "metrics.acc > 1";
    const c = completeFilter(text, 9, keys)!;
    expect(applyCompletion(text, c, "metrics.accuracy").text).toBe("metrics.accuracy > 1");
  });
  it("offers nothing inside a quoted value or for an unknown prefix", () => {
    expect(completeFilter("params.lr = 'met", 16, keys)).toBeUndefined();
    expect(completeFilter("foo.bar", 7, keys)).toBeUndefined();
    expect(completeFilter("metrics.accuracy", 16, keys)).toBeUndefined();
  });
  it("offers the attributes runs/search accepts, as the client lists them from the spec", () => {
    const options = completeFilter("attributes.", 11, keys)?.options;
    expect(options).toEqual(RUN_SEARCH_ATTRIBUTES.map((name) => `attributes.${name}`));
    expect(options).toContain("attributes.artifact_uri");
    // The server refuses user_id in a filter.
    expect(options).not.toContain("attributes.user_id");
    expect(completeFilter("attributes.a", 12, keys)?.options).toEqual(["attributes.artifact_uri"]);
  });
});
