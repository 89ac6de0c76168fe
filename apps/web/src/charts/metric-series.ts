// A metric history as chart points on the chosen x axis, and the merge of a zoomed-in, finer
// sample into the overview sample.
import type { Metric } from "@tracker-ml/client";
import { downsampleMinMax, type Point } from "./downsample";
import type { Range } from "./zoom";

export type XAxis = "step" | "wall" | "relative";

/** Points drawn per run and metric; uPlot also collapses each pixel column while drawing. */
export const DRAW_BUCKETS = 2000;

export interface AxisPoint extends Point {
  step: number;
}

/** The earliest timestamp of a history (0 when empty): the origin of the relative-time axis. */
export function startOf(history: readonly Metric[]): number {
  let t0 = Infinity;
  for (const m of history) t0 = Math.min(t0, m.timestamp);
  return Number.isFinite(t0) ? t0 : 0;
}

/**
 * One run's points on the x axis `x`, sorted by x: steps, wall time in seconds, or seconds since
 * `t0` (by default the history's first timestamp; pass the overview's so a finer sample lines up).
 */
export function axisPoints(history: readonly Metric[], x: XAxis, t0 = startOf(history)): AxisPoint[] {
  const sorted = [...history].sort((a, b) => a.step - b.step || a.timestamp - b.timestamp);
  const points = sorted.map((m) => ({
    x: x === "step" ? m.step : x === "wall" ? m.timestamp / 1000 : (m.timestamp - t0) / 1000,
    y: m.value,
    step: m.step,
  }));
  if (x !== "step") points.sort((a, b) => a.x - b.x);
  return points;
}

/** One run's series on the chosen x axis (sorted), downsampled for drawing. */
export function toPoints(history: readonly Metric[], x: XAxis, t0?: number): Point[] {
  return downsampleMinMax(
    axisPoints(history, x, t0).map(({ x: px, y }) => ({ x: px, y })),
    DRAW_BUCKETS,
  );
}

/** The overview's points outside the `steps` range, with the finer `detail` sample inside it. */
export function mergeDetail(overview: readonly Metric[], detail: readonly Metric[], steps: Range): Metric[] {
  return [...overview.filter((m) => m.step < steps[0] || m.step > steps[1]), ...detail];
}
