import { describe, expect, it } from "vitest";
import { smoothEma } from "./smoothing";

describe("smoothEma", () => {
  it("returns the series unchanged at weight 0", () => {
    expect(smoothEma([1, 5, 2], 0)).toEqual([1, 5, 2]);
  });
  it("is debiased: a constant series stays constant", () => {
    for (const v of smoothEma([3, 3, 3, 3], 0.9)) expect(v).toBeCloseTo(3, 10);
  });
  it("damps a step towards the new level", () => {
    const out = smoothEma([0, 0, 10, 10], 0.5) as number[];
    expect(out[0]).toBe(0);
    expect(out[2]).toBeGreaterThan(0);
    expect(out[2]).toBeLessThan(10);
    expect(out[3]).toBeGreaterThan(out[2]!);
  });
  it("passes NaN and gaps through without poisoning later values", () => {
    const out = smoothEma([1, Number.NaN, null, 1], 0.6);
    expect(Number.isNaN(out[1])).toBe(true);
    expect(out[2]).toBeNull();
    expect(out[3]).toBeCloseTo(1, 10);
  });
});
