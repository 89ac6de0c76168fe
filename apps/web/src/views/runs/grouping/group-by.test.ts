import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { datasetLabel, formatGroupBy, groupItems, groupValue, NO_VALUE, parseGroupBy } from "./group-by";

function run(id: string, params: Record<string, string>, tags: Record<string, string> = {}): Run {
  return {
    info: { run_id: id, experiment_id: "1", status: "FINISHED", lifecycle_stage: "active" } as Run["info"],
    data: {
      metrics: [],
      params: Object.entries(params).map(([key, value]) => ({ key, value })),
      tags: Object.entries(tags).map(([key, value]) => ({ key, value })),
    },
  };
}

describe("group by", () => {
  it("reads and writes params, tags and dataset; refuses anything else", () => {
    expect(parseGroupBy("params.model")).toEqual({ kind: "params", key: "model" });
    expect(parseGroupBy("tags.team.name")).toEqual({ kind: "tags", key: "team.name" });
    expect(parseGroupBy("dataset")).toEqual({ kind: "dataset" });
    expect(parseGroupBy("metrics.acc")).toBeUndefined();
    expect(parseGroupBy(undefined)).toBeUndefined();
    expect(formatGroupBy({ kind: "params", key: "model" })).toBe("params.model");
  });
  it("takes a run's param or tag value, NO_VALUE when missing", () => {
    const r = run("a", { model: "mlp" }, { team: "risk" });
    expect(groupValue(r, { kind: "params", key: "model" })).toBe("mlp");
    expect(groupValue(r, { kind: "tags", key: "team" })).toBe("risk");
    expect(groupValue(r, { kind: "params", key: "lr" })).toBe(NO_VALUE);
    expect(groupValue(r, { kind: "dataset" })).toBe(NO_VALUE);
  });
  it("labels a run's datasets by name and digest", () => {
    const r = {
      ...run("a", {}),
      inputs: { dataset_inputs: [{ dataset: { name: "train", digest: "0123456789" } }, { dataset: { name: "eval" } }] },
    };
    expect(datasetLabel(r)).toBe("eval, train@01234567");
  });
  it("partitions in value order with NO_VALUE last, keeping each group's order", () => {
    const groups = groupItems(["b1", "x", "a1", "b2", "a2"], (s) => (s === "x" ? NO_VALUE : s[0]!));
    expect(groups).toEqual([
      { value: "a", items: ["a1", "a2"] },
      { value: "b", items: ["b1", "b2"] },
      { value: NO_VALUE, items: ["x"] },
    ]);
  });
});
