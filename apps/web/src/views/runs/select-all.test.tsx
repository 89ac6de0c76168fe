import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SelectAll, selectAllState, toggleAll } from "./select-all";

describe("select all", () => {
  it("tells none, some and all of the loaded runs", () => {
    expect(selectAllState(["a", "b"], [])).toBe("none");
    expect(selectAllState(["a", "b"], ["b", "x"])).toBe("some");
    expect(selectAllState(["a", "b"], ["a", "b"])).toBe("all");
    expect(selectAllState([], ["x"])).toBe("none");
  });

  it("ticks every loaded run, or clears them, keeping runs ticked elsewhere", () => {
    expect(toggleAll(["a", "b"], ["x", "a"])).toEqual(["x", "a", "b"]);
    expect(toggleAll(["a", "b"], ["x", "a", "b"])).toEqual(["x"]);
  });

  it("shows a dash when some are ticked and reports the new selection", () => {
    const onChange = vi.fn();
    render(<SelectAll loaded={["a", "b"]} selected={["a"]} onChange={onChange} />);
    const box = screen.getByRole<HTMLInputElement>("checkbox", { name: "Select all 2 loaded runs" });
    expect(box.indeterminate).toBe(true);
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(onChange).toHaveBeenCalledWith(["a", "b"]);
  });
});
