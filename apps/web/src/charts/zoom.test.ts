import { describe, expect, it } from "vitest";
import {
  clampRange,
  extentOf,
  isZoomedIn,
  panByPixels,
  panRange,
  parseZooms,
  stepRangeFor,
  stepsCovering,
  withZoom,
  zoomRange,
} from "./zoom";

describe("pan and zoom arithmetic", () => {
  it("pans by a fraction of the width, stopping at the data's ends with the width kept", () => {
    expect(panRange([10, 20], 0.5)).toEqual([15, 25]);
    expect(panRange([10, 20], -0.25, [0, 100])).toEqual([7.5, 17.5]);
    expect(panRange([10, 20], -2, [0, 100])).toEqual([0, 10]);
    expect(panRange([80, 95], 1, [0, 100])).toEqual([85, 100]);
    // Wider than the data: the whole extent.
    expect(panRange([-10, 200], 0.1, [0, 100])).toEqual([0, 100]);
  });

  it("moves the window against a mouse drag: dragging the data right shows earlier x", () => {
    expect(panByPixels([100, 200], 50, 500)).toEqual([90, 190]);
    expect(panByPixels([100, 200], -250, 500, [0, 220])).toEqual([120, 220]);
    expect(panByPixels([100, 200], 10, 0)).toEqual([100, 200]);
  });

  it("zooms around the centre and clamps to the data", () => {
    expect(zoomRange([0, 100], 0.5)).toEqual([25, 75]);
    expect(zoomRange([40, 60], 2, [0, 100])).toEqual([30, 70]);
    expect(zoomRange([0, 20], 4, [0, 50])).toEqual([0, 50]);
    expect(clampRange([5, 10], undefined)).toEqual([5, 10]);
  });

  it("knows the data's extent and whether a range hides part of it", () => {
    expect(extentOf([[], [{ x: 3 }, { x: 9 }], [{ x: -1 }, { x: 4 }]])).toEqual([-1, 9]);
    expect(extentOf([[], []])).toBeUndefined();
    expect(isZoomedIn([2, 8], [0, 10])).toBe(true);
    expect(isZoomedIn([0, 10], [0, 10])).toBe(false);
    expect(isZoomedIn(undefined, [0, 10])).toBe(false);
  });
});

describe("time range to step range", () => {
  // Two runs: one logs a step a second from t=0, the other a step every 2 s from t=100.
  const a = Array.from({ length: 11 }, (_, i) => ({ x: i, step: i }));
  const b = Array.from({ length: 11 }, (_, i) => ({ x: 100 + 2 * i, step: i * 10 }));

  it("takes the steps of the points inside and of the nearest point beyond each edge", () => {
    expect(stepRangeFor([a], [3.5, 6.2])).toEqual([3, 7]);
    expect(stepRangeFor([a], [3, 6])).toEqual([3, 6]);
    expect(stepRangeFor([a], [0, 10])).toEqual([0, 10]);
  });

  it("covers every run's steps in the range", () => {
    expect(stepRangeFor([a], [5, 104])).toEqual([5, 10]);
    expect(stepRangeFor([b], [5, 104])).toEqual([0, 20]);
    expect(stepRangeFor([a, b], [5, 104])).toEqual([0, 20]);
    expect(stepRangeFor([a, b], [103, 107])).toEqual([10, 40]);
    expect(stepRangeFor([a, b], [2, 3])).toEqual([0, 3]);
  });

  it("takes the nearest points when the range falls between points or outside the data", () => {
    expect(stepRangeFor([a], [4.2, 4.8])).toEqual([4, 5]);
    expect(stepRangeFor([a], [-20, -10])).toEqual([0, 0]);
    expect(stepRangeFor([a], [50, 60])).toEqual([10, 10]);
    expect(stepRangeFor([[], []], [0, 1])).toBeUndefined();
  });

  it("copes with steps logged out of time order", () => {
    const shuffled = [
      { x: 0, step: 5 },
      { x: 1, step: 1 },
      { x: 2, step: 9 },
      { x: 3, step: 2 },
    ];
    expect(stepRangeFor([shuffled], [1.5, 2.5])).toEqual([1, 9]);
  });

  it("covers a zoomed step range with whole steps", () => {
    expect(stepsCovering([2.4, 7.1])).toEqual([2, 8]);
  });
});

describe("zoom in the URL", () => {
  it("keeps one range per metric key and drops malformed items", () => {
    const zooms = parseZooms(["acc:10:20.5", "val loss:-1:1e3", "x:5", "y:3:2", ":1:2", "z:a:3", "w::3"]);
    expect([...zooms]).toEqual([
      ["acc", [10, 20.5]],
      ["val loss", [-1, 1000]],
    ]);
  });

  it("adds, replaces and removes a key's zoom, with short numbers", () => {
    expect(withZoom([], "acc", [1 / 3, 2])).toEqual(["acc:0.333333333333333:2"]);
    expect(withZoom(["acc:1:2", "loss:3:4"], "acc", [5, 6])).toEqual(["acc:5:6", "loss:3:4"]);
    expect(withZoom(["acc:1:2", "loss:3:4"], "acc", undefined)).toEqual(["loss:3:4"]);
    // A wall time in seconds keeps its milliseconds.
    expect(parseZooms(withZoom([], "acc", [1717171717.123, 1717171800.5])).get("acc")).toEqual([
      1717171717.123, 1717171800.5,
    ]);
  });
});
