import { describe, expect, it } from "vitest";
import { groupColors, withAlpha } from "./series-colors";

describe("series colours", () => {
  it("adds an alpha to hex and hsl colours", () => {
    expect(withAlpha("#1f77b4", 0.2)).toBe("#1f77b433");
    expect(withAlpha("hsl(20 70% 48%)", 0.2)).toBe("hsl(20 70% 48% / 0.2)");
    expect(withAlpha("red", 0.2)).toBe("red");
  });
  it("gives groups distinct colours", () => {
    const colors = groupColors(["mlp", "logreg", "tree"]);
    expect(new Set(colors.values()).size).toBe(3);
    expect([...colors.keys()]).toEqual(["mlp", "logreg", "tree"]);
    for (const c of colors.values()) expect(c).toMatch(/^#|^hsl/);
  });
});
