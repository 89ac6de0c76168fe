import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { readCollapsed, tableItems, writeCollapsed, type GroupItem } from "./table-groups";

function run(id: string, model: string | undefined, acc: number): Run {
  return {
    info: { run_id: id } as Run["info"],
    data: {
      metrics: [{ key: "acc", value: acc, step: 0, timestamp: 0 }],
      params: model ? [{ key: "model", value: model }] : [],
      tags: [],
    },
  };
}

const runs = [
  run("a", "mlp", 0.86),
  run("b", "logreg", 0.71),
  run("c", "mlp", 0.93),
  run("d", "mlp", 0.64),
  run("e", undefined, 0.5),
];
const describeItems = (items: ReturnType<typeof tableItems<Run>>) =>
  items.map((i) => (i.kind === "group" ? `[${i.value} ${i.count}${i.collapsed ? " +" : ""}]` : i.row.info.run_id));

describe("table groups", () => {
  it("leaves the rows alone without grouping", () => {
    expect(describeItems(tableItems(runs, (r) => r, undefined, new Set(), []))).toEqual(["a", "b", "c", "d", "e"]);
  });
  it("puts a header with the count before each group's rows, and hides the rows of a collapsed group", () => {
    const items = tableItems(runs, (r) => r, { kind: "params", key: "model" }, new Set(["mlp"]), ["metrics.acc"]);
    expect(describeItems(items)).toEqual(["[logreg 1]", "b", "[mlp 3 +]", "[(none) 1]", "e"]);
    const mlp = items.find((i): i is GroupItem => i.kind === "group" && i.value === "mlp")!;
    const acc = mlp.summaries.get("metrics.acc")!;
    expect([acc.count, acc.min, acc.max]).toEqual([3, 0.64, 0.93]);
    expect(acc.mean).toBeCloseTo((0.86 + 0.93 + 0.64) / 3, 12);
  });
  it("keeps collapsed values with commas through the URL", () => {
    expect(readCollapsed(writeCollapsed(["a,b", "c d"]))).toEqual(new Set(["a,b", "c d"]));
    expect(readCollapsed(["%E0%A4%A"])).toEqual(new Set());
  });
});
