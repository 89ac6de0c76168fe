import { describe, expect, it } from "vitest";
import { aggregateSeries, summarize } from "./aggregate";

describe("summarize", () => {
  it("gives count, min, max and mean of the finite values", () => {
    expect(summarize([1, undefined, 3, Number.NaN, 2])).toEqual({ count: 3, min: 1, max: 3, mean: 2 });
  });
  it("is undefined without values", () => {
    expect(summarize([undefined])).toBeUndefined();
    expect(summarize([])).toBeUndefined();
  });
});

describe("aggregateSeries", () => {
  it("averages series at shared steps and keeps their min and max", () => {
    const band = aggregateSeries([
      { x: [0, 1, 2], y: [1, 2, 3] },
      { x: [0, 1, 2], y: [3, 4, 5] },
    ]);
    expect(band).toEqual({ x: [0, 1, 2], mean: [2, 3, 4], min: [1, 2, 3], max: [3, 4, 5], count: [2, 2, 2] });
  });
  it("interpolates between a series' own points and leaves it out past its range", () => {
    const band = aggregateSeries([
      { x: [0, 2, 4], y: [0, 2, 4] },
      { x: [1, 3], y: [10, 30] },
    ]);
    expect(band.x).toEqual([0, 1, 2, 3, 4]);
    expect(band.count).toEqual([1, 2, 2, 2, 1]);
    // At 2 the second series is halfway between 10 and 30.
    expect(band.mean[2]).toBe((2 + 20) / 2);
    expect(band.min).toEqual([0, 1, 2, 3, 4]);
    expect(band.max).toEqual([0, 10, 20, 30, 4]);
  });
  it("is empty for no series", () => {
    expect(aggregateSeries([]).x).toEqual([]);
  });
});
