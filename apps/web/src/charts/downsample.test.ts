import { describe, expect, it } from "vitest";
import { downsampleMinMax, type Point } from "./downsample";

const series = (ys: number[]): Point[] => ys.map((y, x) => ({ x, y }));

describe("downsampleMinMax", () => {
  it("keeps short series whole (fewer points than the budget, one point, none)", () => {
    expect(downsampleMinMax(series([1, 2, 3]), 10)).toHaveLength(3);
    expect(downsampleMinMax(series([7]), 1)).toEqual([{ x: 0, y: 7 }]);
    expect(downsampleMinMax([], 5)).toEqual([]);
    expect(downsampleMinMax(series([1, 2]), 0)).toEqual([]);
  });
  it("keeps first, last, min and max of each bucket, in x order", () => {
    const ys = Array.from({ length: 10_000 }, (_, i) => Math.sin(i / 50));
    ys[4321] = 1000; // a spike
    ys[8765] = -1000; // a dip
    const out = downsampleMinMax(series(ys), 100);
    expect(out.length).toBeLessThanOrEqual(400);
    expect(out.some((p) => p.y === 1000)).toBe(true);
    expect(out.some((p) => p.y === -1000)).toBe(true);
    expect(out[0]).toEqual({ x: 0, y: ys[0] });
    expect(out[out.length - 1]).toEqual({ x: 9999, y: ys[9999] });
    for (let i = 1; i < out.length; i++) expect(out[i]!.x).toBeGreaterThan(out[i - 1]!.x);
  });
  it("does not let NaN hide the real extremes of a bucket", () => {
    const ys = Array.from({ length: 1000 }, () => 0);
    ys[0] = Number.NaN;
    ys[500] = 5;
    const out = downsampleMinMax(series(ys), 1);
    expect(out.some((p) => p.y === 5)).toBe(true);
  });
});
