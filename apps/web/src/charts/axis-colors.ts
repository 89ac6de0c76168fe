import type uPlot from "uplot";

/**
 * A canvas knows no `currentColor`: axes asking for it (their labels, ticks and numbers) get the
 * host element's computed text colour instead, so they read in light and dark mode alike.
 */
export function withAxisColor(axes: readonly uPlot.Axis[] | undefined, color: string): uPlot.Axis[] | undefined {
  return axes?.map((axis) =>
    axis.stroke === "currentColor"
      ? { ...axis, stroke: color, ticks: { ...axis.ticks, stroke: axis.ticks?.stroke ?? color } }
      : axis,
  );
}
