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
