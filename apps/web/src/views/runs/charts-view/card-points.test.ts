import { describe, expect, it } from "vitest";
import { POINTS_PER_PIXEL, pointsPerRun } from "./card-points";

describe("pointsPerRun", () => {
  it("shares the card's pixels among its runs, between 50 and 1,000 a run", () => {
    expect(pointsPerRun(100, 480)).toBe(50);
    expect(pointsPerRun(10, 480)).toBe(500);
    expect(pointsPerRun(1, 480)).toBe(1000);
    expect(pointsPerRun(100, 1000)).toBe(100);
    expect(pointsPerRun(10, 1000) * 10).toBe(1000 * POINTS_PER_PIXEL);
  });
  it("asks the same for a few pixels more or less, and assumes 500 px before layout", () => {
    expect(pointsPerRun(20, 431)).toBe(pointsPerRun(20, 499));
    expect(pointsPerRun(20, 0)).toBe(pointsPerRun(20, 500));
    expect(pointsPerRun(20)).toBe(250);
  });
});
