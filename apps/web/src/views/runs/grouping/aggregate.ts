// Aggregates over a group of runs: min / max / mean of a value, and of metric histories step by
// step (the mean line and min-max band of a grouped line chart).

export interface Summary {
  /** Runs with a value. */
  count: number;
  min: number;
  max: number;
  mean: number;
}

/** Min, max and mean of the finite values; undefined when there are none. */
export function summarize(values: readonly (number | undefined)[]): Summary | undefined {
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v === undefined || !Number.isFinite(v)) continue;
    count += 1;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return count ? { count, min, max, mean: sum / count } : undefined;
}

/** One run's series: x ascending, y at each x. */
export interface Series {
  x: readonly number[];
  y: readonly number[];
}

export interface Band {
  x: number[];
  mean: number[];
  min: number[];
  max: number[];
  /** How many runs cover each x. */
  count: number[];
}

/**
 * The mean, min and max of several series at every x any of them has. A series counts at an x
 * inside its own range: at its own points as they are, between them linearly interpolated (the
 * server samples each run's history at its own steps); outside its range it does not count.
 */
export function aggregateSeries(series: readonly Series[]): Band {
  const xs = [...new Set(series.flatMap((s) => s.x))].sort((a, b) => a - b);
  const out: Band = { x: [], mean: [], min: [], max: [], count: [] };
  const cursor = series.map(() => 0);
  for (const x of xs) {
    let count = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    series.forEach((s, i) => {
      const n = s.x.length;
      if (n === 0 || x < s.x[0]! || x > s.x[n - 1]!) return;
      let j = cursor[i]!;
      while (j < n - 1 && s.x[j + 1]! <= x) j += 1;
      cursor[i] = j;
      const x0 = s.x[j]!;
      const y0 = s.y[j]!;
      const y = x0 === x || j === n - 1 ? y0 : y0 + ((s.y[j + 1]! - y0) * (x - x0)) / (s.x[j + 1]! - x0);
      if (!Number.isFinite(y)) return;
      count += 1;
      sum += y;
      if (y < min) min = y;
      if (y > max) max = y;
    });
    if (count === 0) continue;
    out.x.push(x);
    out.mean.push(sum / count);
    out.min.push(min);
    out.max.push(max);
    out.count.push(count);
  }
  return out;
}
