// Zoom and pan of a chart's x axis as plain arithmetic on [from, to] ranges, the mapping of a
// zoomed time range to the step range the server samples (get-history-bulk-interval takes steps),
// and the zoom's form in the URL (`zoom=<metric key>:<from>:<to>,...`).

export type Range = readonly [number, number];

/** `range` moved inside `extent` when it sticks out, keeping its width (the extent itself when wider). */
export function clampRange(range: Range, extent: Range | undefined): Range {
  if (!extent) return range;
  const width = range[1] - range[0];
  if (width >= extent[1] - extent[0]) return extent;
  if (range[0] < extent[0]) return [extent[0], extent[0] + width];
  if (range[1] > extent[1]) return [extent[1] - width, extent[1]];
  return range;
}

/** `range` moved by `fraction` of its width (negative: towards smaller x), kept inside `extent`. */
export function panRange(range: Range, fraction: number, extent?: Range): Range {
  const shift = (range[1] - range[0]) * fraction;
  return clampRange([range[0] + shift, range[1] + shift], extent);
}

/** The range after the data was dragged `dx` pixels on a plot `width` pixels wide (drag right: earlier x). */
export function panByPixels(range: Range, dx: number, width: number, extent?: Range): Range {
  if (width <= 0) return range;
  return panRange(range, -dx / width, extent);
}

/** `range` scaled by `factor` around its centre (< 1 zooms in), kept inside `extent`. */
export function zoomRange(range: Range, factor: number, extent?: Range): Range {
  const centre = (range[0] + range[1]) / 2;
  const half = ((range[1] - range[0]) * factor) / 2;
  return clampRange([centre - half, centre + half], extent);
}

/** Whether `range` shows less than the whole `extent`. */
export function isZoomedIn(range: Range | undefined, extent: Range | undefined): boolean {
  return Boolean(range && extent && (range[0] > extent[0] || range[1] < extent[1]));
}

/** The smallest and largest x of series sorted by x (undefined when all are empty). */
export function extentOf(series: readonly (readonly { x: number }[])[]): Range | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (const points of series) {
    if (points.length === 0) continue;
    min = Math.min(min, points[0]!.x);
    max = Math.max(max, points[points.length - 1]!.x);
  }
  return min <= max ? [min, max] : undefined;
}

export interface StepPoint {
  /** The point's place on the chart's x axis (a time). */
  x: number;
  step: number;
}

/**
 * The steps to fetch again for a zoomed x range on a time axis, from the points already loaded
 * (each run's series sorted by x): the steps of the points inside the range and of the nearest
 * point on either side, so that the lines run to the edges. Runs differ in how time maps to
 * steps, so the answer spans all of them. Undefined when no run has a point.
 */
export function stepRangeFor(series: readonly (readonly StepPoint[])[], range: Range): Range | undefined {
  let from = Infinity;
  let to = -Infinity;
  for (const points of series) {
    if (points.length === 0) continue;
    // From the last point at or before the range's start to the first at or after its end.
    let lo = 0;
    while (lo + 1 < points.length && points[lo + 1]!.x <= range[0]) lo++;
    let hi = points.length - 1;
    while (hi - 1 >= lo && points[hi - 1]!.x >= range[1]) hi--;
    for (let i = lo; i <= hi; i++) {
      from = Math.min(from, points[i]!.step);
      to = Math.max(to, points[i]!.step);
    }
  }
  return from <= to ? [from, to] : undefined;
}

/** Whole steps covering a zoomed range of the step axis. */
export function stepsCovering(range: Range): Range {
  return [Math.floor(range[0]), Math.ceil(range[1])];
}

/** A number for the URL: fifteen significant digits (a wall time in seconds keeps its milliseconds). */
function short(value: number): string {
  return String(Number(value.toPrecision(15)));
}

/** Zoomed ranges by metric key from the URL's `zoom` list; malformed items are ignored. */
export function parseZooms(items: readonly string[]): Map<string, Range> {
  const zooms = new Map<string, Range>();
  for (const item of items) {
    // Metric keys hold no ':' (nor ','): key, from and to are the three parts.
    const parts = item.split(":");
    if (parts.length !== 3 || parts[0] === "") continue;
    const from = Number(parts[1]);
    const to = Number(parts[2]);
    if (parts[1] === "" || parts[2] === "" || !Number.isFinite(from) || !Number.isFinite(to) || from >= to) continue;
    zooms.set(parts[0]!, [from, to]);
  }
  return zooms;
}

/** The URL's `zoom` list with `key` zoomed to `range` (or its zoom removed when undefined). */
export function withZoom(items: readonly string[], key: string, range: Range | undefined): string[] {
  const zooms = parseZooms(items);
  if (range) zooms.set(key, range);
  else zooms.delete(key);
  return [...zooms].map(([k, [from, to]]) => `${k}:${short(from)}:${short(to)}`);
}
