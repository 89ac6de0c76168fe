import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { chartRuns, readRunLimit, toggled } from "./chart-runs";

const runs: Run[] = ["a", "b", "c", "d", "e"].map((id) => ({
  info: { run_id: id } as Run["info"],
  data: { metrics: [], params: [], tags: [] },
}));
const ids = (list: ReturnType<typeof chartRuns>) =>
  list.map((r) => `${r.run.info.run_id}${r.pinned ? "!" : ""}${r.hidden ? "-" : ""}`);

describe("chart runs", () => {
  it("takes the first runs up to the limit, pinned ones first and never hidden", () => {
    expect(ids(chartRuns({ runs, selected: [], pinned: ["e"], hidden: ["b", "e"], limit: 2 }))).toEqual([
      "e!",
      "a",
      "b-",
    ]);
  });
  it("takes the selection instead of the first runs when there is one", () => {
    expect(ids(chartRuns({ runs, selected: ["d", "b"], pinned: [], hidden: [], limit: 1 }))).toEqual(["b", "d"]);
  });
  it("reads the limit and toggles list members", () => {
    expect(readRunLimit("50")).toBe(50);
    expect(readRunLimit("7")).toBe(10);
    expect(toggled(["a"], "b", true)).toEqual(["a", "b"]);
    expect(toggled(["a", "b"], "a", false)).toEqual(["b"]);
  });
});
