// Reduces a long series to at most ~4 points per bucket for drawing: each bucket keeps its first,
// last, minimum and maximum point (in x order), so spikes stay visible. Mirrors what the server's
// bulk-interval sampling does in SQL.

export interface Point {
  x: number;
  y: number;
}

export function downsampleMinMax(points: readonly Point[], buckets: number): Point[] {
  if (buckets <= 0) return [];
  if (points.length <= buckets * 4) return [...points];
  const out: Point[] = [];
  const size = points.length / buckets;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    if (from >= to) continue;
    let min = from;
    let max = from;
    for (let i = from; i < to; i++) {
      const y = points[i]!.y;
      // NaN never wins a comparison; it is kept only as a first or last point.
      if (y < points[min]!.y || Number.isNaN(points[min]!.y)) min = i;
      if (y > points[max]!.y || Number.isNaN(points[max]!.y)) max = i;
    }
    for (const i of [...new Set([from, min, max, to - 1])].sort((a, b) => a - b)) out.push(points[i]!);
  }
  return out;
}
