import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ColumnPicker } from "./column-picker";

describe("ColumnPicker", () => {
  it("lists the keys by kind, filters them and reports the new column list", () => {
    const onChange = vi.fn();
    render(
      <ColumnPicker
        keys={{ metrics: ["acc", "loss"], params: ["lr"], tags: [] }}
        columns={["metrics.loss"]}
        onChange={onChange}
      />,
    );
    expect((screen.getByLabelText("loss") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText("acc"));
    expect(onChange).toHaveBeenCalledWith(["metrics.loss", "metrics.acc"]);
    fireEvent.change(screen.getByLabelText("Find a column"), { target: { value: "l" } });
    expect(screen.queryByLabelText("acc")).toBeNull();
    expect(screen.getByLabelText("lr")).toBeTruthy();
  });
});
