import { describe, expect, it } from "vitest";
import { colorFor, colorsFor } from "./colors";

describe("run colours", () => {
  it("are stable for a run and distinct within a set", () => {
    expect(colorFor("abc")).toBe(colorFor("abc"));
    const ids = Array.from({ length: 12 }, (_, i) => `run-${i}`);
    const colors = colorsFor(ids);
    expect(new Set(colors.values()).size).toBe(12);
    expect(colorsFor([...ids].reverse())).toEqual(colors);
  });
});

describe("colours of large sets", () => {
  it("never repeat, up to hundreds of runs", () => {
    for (const n of [13, 21, 100, 300]) {
      const ids = Array.from({ length: n }, (_, i) => String(i).padStart(32, "0"));
      expect(new Set(colorsFor(ids).values()).size, `${n} runs`).toBe(n);
    }
  });
});
