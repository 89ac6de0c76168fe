import { describe, expect, it } from "vitest";
import {
  INT64_MAX,
  INT64_MIN,
  ROLLUP_LEVELS,
  blockSteps,
  chooseLevel,
  countPieces,
  coveredBlocks,
  levelShift,
} from "./metric-rollups.js";

/** Pure geometry of the rollup levels; the SQL is tested in metric-sampling.test.ts. */
describe("metric rollup levels", () => {
  it("covers only blocks wholly inside a range, negative and extreme steps included", () => {
    expect(coveredBlocks(4, 0n, 15n)).toEqual({ from: 0n, to: 0n });
    expect(coveredBlocks(4, 1n, 15n)).toBeUndefined();
    expect(coveredBlocks(4, -16n, -1n)).toEqual({ from: -1n, to: -1n });
    expect(coveredBlocks(4, -17n, 16n)).toEqual({ from: -1n, to: 0n });
    expect(blockSteps(4, { from: -1n, to: 0n })).toEqual({ from: -16n, to: 15n });
    const all = coveredBlocks(16, INT64_MIN, INT64_MAX)!;
    expect(blockSteps(16, all)).toEqual({ from: INT64_MIN, to: INT64_MAX });
  });

  it("cuts a range into disjoint pieces that cover it exactly", () => {
    const ranges: Array<[bigint, bigint]> = [
      [INT64_MIN, INT64_MAX],
      [0n, 0n],
      [3n, 70_000n],
      [-1_000_003n, 123_456_789n],
      [-5n, 5n],
      [INT64_MAX - 100_000n, INT64_MAX],
      [INT64_MIN, INT64_MIN + 70_000n],
    ];
    for (const [start, end] of ranges) {
      const { blocks, raw } = countPieces(start, end);
      const spans = [...blocks.map((b) => blockSteps(levelShift(b.level), b)), ...raw].sort((a, b) =>
        a.from < b.from ? -1 : 1,
      );
      expect(spans[0]!.from).toBe(start);
      expect(spans[spans.length - 1]!.to).toBe(end);
      for (let i = 1; i < spans.length; i++) expect(spans[i]!.from).toBe(spans[i - 1]!.to + 1n);
      expect(blocks.length).toBeLessThanOrEqual(1 + 2 * (ROLLUP_LEVELS.length - 1));
      expect(raw.every((r) => r.to - r.from < 16n)).toBe(true);
    }
  });

  it("samples from the coarsest level whose blocks are no wider than a bucket", () => {
    expect(chooseLevel(0n, 99_999n, 250)).toBe(1); // 400 steps a bucket: blocks of 256
    expect(chooseLevel(0n, 999n, 12)).toBe(4); // 83 steps a bucket: blocks of 64
    expect(chooseLevel(0n, 999n, 16)).toBe(0); // 62 steps a bucket: blocks of 16
    expect(chooseLevel(0n, 9_999n, 625)).toBe(0); // 16 steps a bucket: blocks of 16
    expect(chooseLevel(0n, 9_998n, 625)).toBe(-1); // narrower: raw points
    expect(chooseLevel(INT64_MIN, INT64_MAX, 1)).toBe(3);
  });
});
