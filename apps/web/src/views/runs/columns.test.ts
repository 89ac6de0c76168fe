import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { availableKeys, keyValue, orderByFor, parseKeyColumn, quoteKey, toggleColumn } from "./columns";
import { nestRuns } from "./run-tree";

export function fakeRun(id: string, data: Partial<Run["data"]> = {}): Run {
  return {
    info: {
      run_id: id,
      run_uuid: id,
      experiment_id: "1",
      run_name: id,
      status: "FINISHED",
      start_time: 1,
      lifecycle_stage: "active",
      artifact_uri: "",
    } as Run["info"],
    data: { metrics: [], params: [], tags: [], ...data },
  };
}

describe("runs table columns", () => {
  it("collects keys of every kind, sorted, leaving out system tags", () => {
    const runs = [
      fakeRun("a", {
        metrics: [{ key: "loss", value: 1, step: 0, timestamp: 0 }],
        params: [{ key: "lr", value: "0.1" }],
        tags: [
          { key: "tracker.user", value: "u" },
          { key: "team", value: "x" },
        ],
      }),
      fakeRun("b", {
        metrics: [{ key: "acc", value: 1, step: 0, timestamp: 0 }],
        params: [{ key: "lr", value: "0.2" }],
      }),
    ];
    expect(availableKeys(runs, "tracker")).toEqual({ metrics: ["acc", "loss"], params: ["lr"], tags: ["team"] });
    expect(availableKeys(runs, "mlflow").tags).toEqual(["team", "tracker.user"]);
  });
  it("toggles columns keeping the order of choice", () => {
    expect(toggleColumn(["metrics.a"], "params.b")).toEqual(["metrics.a", "params.b"]);
    expect(toggleColumn(["metrics.a", "params.b"], "metrics.a")).toEqual(["params.b"]);
  });
  it("builds server-side order_by clauses, quoting keys that need it", () => {
    expect(orderByFor("start", true, "tracker")).toBe("attributes.start_time DESC");
    expect(orderByFor("user", false, "mlflow")).toBe("tags.mlflow.user ASC");
    expect(orderByFor("metrics.val loss", true, "tracker")).toBe("metrics.`val loss` DESC");
    expect(orderByFor("select", true, "tracker")).toBeUndefined();
    expect(quoteKey("a-b")).toBe("`a-b`");
  });
  it("reads the value of a key column", () => {
    const run = fakeRun("a", {
      metrics: [{ key: "acc", value: 0.5, step: 0, timestamp: 0 }],
      params: [{ key: "lr", value: "0.1" }],
    });
    expect(keyValue(run, parseKeyColumn("metrics.acc")!)).toBe(0.5);
    expect(keyValue(run, parseKeyColumn("params.lr")!)).toBe("0.1");
    expect(keyValue(run, parseKeyColumn("tags.none")!)).toBeUndefined();
    expect(parseKeyColumn("name")).toBeUndefined();
  });
});

describe("nested runs", () => {
  const child = (id: string, parent: string) => fakeRun(id, { tags: [{ key: "tracker.parentRunId", value: parent }] });
  it("puts children right under their parent with a depth", () => {
    const rows = nestRuns([child("c1", "p"), fakeRun("x"), fakeRun("p"), child("g", "c1")], "tracker.parentRunId");
    expect(rows.map((r) => [r.run.info.run_id, r.depth])).toEqual([
      ["x", 0],
      ["p", 0],
      ["c1", 1],
      ["g", 2],
    ]);
    expect(rows.find((r) => r.run.info.run_id === "p")!.childCount).toBe(1);
  });
  it("keeps orphans and cycles at the top level without looping", () => {
    const rows = nestRuns([child("a", "b"), child("b", "a"), child("o", "missing")], "tracker.parentRunId");
    expect(rows.map((r) => r.run.info.run_id).sort()).toEqual(["a", "b", "o"]);
  });
});
