import { describe, expect, it } from "vitest";
import { focusInRow, rowStep } from "./row-keys";

const key = (k: string, target: EventTarget | null = null, mods = {}) => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  target,
  ...mods,
});

describe("rowStep", () => {
  it("maps the up and down arrows, outside text fields and without modifiers", () => {
    const box = document.createElement("input");
    box.type = "checkbox";
    const text = document.createElement("input");
    expect(rowStep(key("ArrowDown", box))).toBe(1);
    expect(rowStep(key("ArrowUp"))).toBe(-1);
    expect(rowStep(key("ArrowLeft", box))).toBeUndefined();
    expect(rowStep(key("ArrowDown", text))).toBeUndefined();
    expect(rowStep(key("ArrowDown", box, { ctrlKey: true }))).toBeUndefined();
  });
});

describe("focusInRow", () => {
  it("focuses the control in the same column of the target row", () => {
    document.body.innerHTML = `<div id="g">
      <div role="row" aria-rowindex="2"><div><input type="checkbox" id="a"></div><div><a href="#1" id="b">x</a></div></div>
      <div role="row" aria-rowindex="3"><div><input type="checkbox" id="c"></div><div><a href="#2" id="d">y</a></div></div>
    </div>`;
    const grid = document.getElementById("g")!;
    focusInRow(grid, 3, 1);
    expect(document.activeElement?.id).toBe("d");
    focusInRow(grid, 2, 0);
    expect(document.activeElement?.id).toBe("a");
  });
});
