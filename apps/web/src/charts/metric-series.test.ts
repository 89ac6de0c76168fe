import type { Metric } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { axisPoints, mergeDetail, startOf, toPoints } from "./metric-series";

const m = (step: number, timestamp: number, value = step): Metric => ({ key: "acc", step, timestamp, value });

describe("metric series on an x axis", () => {
  const history = [m(2, 5000), m(0, 1000), m(1, 3000)];

  it("puts points on the step, wall-time and relative-time axes, sorted by x, keeping their steps", () => {
    expect(axisPoints(history, "step").map((p) => [p.x, p.step])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(axisPoints(history, "wall").map((p) => p.x)).toEqual([1, 3, 5]);
    expect(axisPoints(history, "relative").map((p) => p.x)).toEqual([0, 2, 4]);
    // A finer sample of a later range measures relative time from the overview's start.
    expect(axisPoints([m(2, 5000)], "relative", startOf(history)).map((p) => p.x)).toEqual([4]);
    expect(startOf([])).toBe(0);
  });

  it("draws plain x/y points", () => {
    expect(toPoints(history, "relative")).toEqual([
      { x: 0, y: 0 },
      { x: 2, y: 1 },
      { x: 4, y: 2 },
    ]);
  });

  it("replaces the overview inside a zoomed step range with the finer sample", () => {
    const overview = [m(0, 0), m(10, 10), m(20, 20), m(30, 30)];
    const detail = [m(10, 10), m(12, 12), m(15, 15), m(20, 20)];
    expect(
      mergeDetail(overview, detail, [10, 20])
        .map((p) => p.step)
        .sort((a, b) => a - b),
    ).toEqual([0, 10, 12, 15, 20, 30]);
  });
});
