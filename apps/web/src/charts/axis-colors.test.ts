import { describe, expect, it } from "vitest";
import { withAxisColor } from "./axis-colors";

describe("withAxisColor", () => {
  it("replaces currentColor by the given colour on axes and their ticks, leaves others alone", () => {
    const axes = withAxisColor(
      [{ stroke: "currentColor", grid: { stroke: "gray" } }, { stroke: "red" }],
      "rgb(230, 233, 237)",
    );
    expect(axes).toEqual([
      { stroke: "rgb(230, 233, 237)", grid: { stroke: "gray" }, ticks: { stroke: "rgb(230, 233, 237)" } },
      { stroke: "red" },
    ]);
    expect(withAxisColor(undefined, "x")).toBeUndefined();
  });
});
