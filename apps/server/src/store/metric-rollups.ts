/**
 * metric_rollups (migrations 0006 and 0014): per (run, key), five levels of step blocks with each block's
 * count, first, last, lowest and highest point, so that metrics/get-history-bulk-interval reads a
 * few thousand block rows instead of whole histories (store/metric-sampling.ts). This module holds
 * the level geometry (pure bigint arithmetic, tested on its own) and the SQL shared by the writer
 * (insertMetrics) and the reader.
 *
 * Points are compared exactly through float8 arrays (db/rollup-arrays.ts).
 */

import { byStep, byValue, byValueDesc, fromByStep, fromByValue, fromByValueDesc } from "../db/rollup-arrays.js";

/**
 * Level l holds blocks of 2^shift steps: block = step >> shift (floor, negative steps included).
 * Listed finest first (by shift); the level numbers are what metric_rollups stores: 0-3 since
 * migration 0006, 4 (blocks of 64 steps, between 0 and 1) since 0014. Each block of a level is
 * made of whole blocks of every finer level.
 */
export const ROLLUP_LEVELS: ReadonlyArray<{ level: number; shift: number }> = [
  { level: 0, shift: 4 },
  { level: 4, shift: 6 },
  { level: 1, shift: 8 },
  { level: 2, shift: 12 },
  { level: 3, shift: 16 },
];

/** The shift of a stored level number. */
export function levelShift(level: number): number {
  const found = ROLLUP_LEVELS.find((l) => l.level === level);
  if (found === undefined) throw new Error(`no rollup level ${level}`);
  return found.shift;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The `(VALUES ...)` of the levels, as `l (level, shift)`. */
export const LEVELS_SQL = `(VALUES ${ROLLUP_LEVELS.map((l) => `(${l.level}, ${l.shift})`).join(", ")}) AS l (level, shift)`;

const COLUMNS = `n, first_step, first_timestamp, first_value, last_step, last_timestamp, last_value,
  min_step, min_timestamp, min_value, max_step, max_timestamp, max_value`;

/**
 * CTEs (to follow `inserted`, the RETURNING rows of the insert into metrics, with key, value,
 * timestamp, step) that fold the points really inserted into metric_rollups: `rolled` reduces
 * them to one row per (key, level, block), `rolled_up` upserts those in key order (concurrent
 * writers lock rows in the same order) and merges with the stored block: counts add up, the
 * smaller first and larger last point win, the lower minimum and higher maximum (NaN never
 * stored there; ties to the earlier (step, timestamp)). Binds the run id once.
 */
export const ROLLUP_UPSERT_CTES = `
     rolled AS (
       SELECT i.key, l.level, i.step >> l.shift AS block, count(*) AS n,
              min(${byStep("i.step", "i.timestamp", "i.value")}) AS first,
              max(${byStep("i.step", "i.timestamp", "i.value")}) AS last,
              min(${byValue("i.step", "i.timestamp", "i.value")}) FILTER (WHERE i.value <> 'NaN') AS low,
              max(${byValueDesc("i.step", "i.timestamp", "i.value")}) FILTER (WHERE i.value <> 'NaN') AS high
         FROM inserted i CROSS JOIN ${LEVELS_SQL}
        GROUP BY i.key, l.level, i.step >> l.shift
     ),
     rolled_up AS (
       INSERT INTO metric_rollups AS t (run_uuid, key, level, block, ${COLUMNS})
       SELECT ?, key, level, block, n, ${fromByStep("first").join(", ")}, ${fromByStep("last").join(", ")},
              ${fromByValue("low").join(", ")}, ${fromByValueDesc("high").join(", ")}
         FROM rolled ORDER BY key, level, block
       ON CONFLICT (run_uuid, key, level, block) DO UPDATE SET
         n = t.n + excluded.n,
         ${["step", "timestamp", "value"].map((c) => `first_${c} = CASE WHEN (excluded.first_step, excluded.first_timestamp, excluded.first_value) < (t.first_step, t.first_timestamp, t.first_value) THEN excluded.first_${c} ELSE t.first_${c} END`).join(",\n         ")},
         ${["step", "timestamp", "value"].map((c) => `last_${c} = CASE WHEN (excluded.last_step, excluded.last_timestamp, excluded.last_value) > (t.last_step, t.last_timestamp, t.last_value) THEN excluded.last_${c} ELSE t.last_${c} END`).join(",\n         ")},
         ${["step", "timestamp", "value"].map((c) => `min_${c} = CASE WHEN t.min_value IS NULL OR (excluded.min_value, excluded.min_step, excluded.min_timestamp) < (t.min_value, t.min_step, t.min_timestamp) THEN excluded.min_${c} ELSE t.min_${c} END`).join(",\n         ")},
         ${["step", "timestamp", "value"].map((c) => `max_${c} = CASE WHEN t.max_value IS NULL OR excluded.max_value > t.max_value OR (excluded.max_value = t.max_value AND (excluded.max_step, excluded.max_timestamp) < (t.max_step, t.max_timestamp)) THEN excluded.max_${c} ELSE t.max_${c} END`).join(",\n         ")}
     )`;

/** An inclusive range of blocks of one level, or of steps. */
export interface Span {
  from: bigint;
  to: bigint;
}

/** The blocks of a level lying wholly inside the steps [start, end], or undefined when none does. */
export function coveredBlocks(shift: number, start: bigint, end: bigint): Span | undefined {
  const k = BigInt(shift);
  const from = -(-start >> k); // ceil(start / 2^k)
  const to = ((end + 1n) >> k) - 1n;
  return from <= to ? { from, to } : undefined;
}

/** The steps of a span of blocks. */
export function blockSteps(shift: number, blocks: Span): Span {
  const k = BigInt(shift);
  return { from: blocks.from << k, to: ((blocks.to + 1n) << k) - 1n };
}

/** The parts of [start, end] outside the steps of `inner` (inside it), at most two. */
export function outside(start: bigint, end: bigint, inner: Span | undefined): Span[] {
  if (inner === undefined) return [{ from: start, to: end }];
  const parts: Span[] = [];
  if (start < inner.from) parts.push({ from: start, to: inner.from - 1n });
  if (inner.to < end) parts.push({ from: inner.to + 1n, to: end });
  return parts;
}

/**
 * [start, end] cut into as few stored pieces as possible, for an exact count: the coarsest
 * level's blocks wholly inside, then at each finer level the blocks wholly inside but outside the
 * coarser level's, and the raw steps left at both edges (fewer than 16 on each side).
 */
export function countPieces(start: bigint, end: bigint): { blocks: Array<{ level: number } & Span>; raw: Span[] } {
  const blocks: Array<{ level: number } & Span> = [];
  let inner: Span | undefined;
  for (const { level, shift } of [...ROLLUP_LEVELS].reverse()) {
    const covered = coveredBlocks(shift, start, end);
    if (covered === undefined) continue;
    const steps = blockSteps(shift, covered);
    for (const part of outside(steps.from, steps.to, inner)) {
      const k = BigInt(shift);
      blocks.push({ level, from: part.from >> k, to: ((part.to + 1n) >> k) - 1n });
    }
    inner = steps;
  }
  return { blocks, raw: outside(start, end, inner) };
}

/**
 * The level a history of steps lo..hi is sampled from into `buckets` buckets: the coarsest whose
 * blocks are no wider than a bucket, so that each bucket takes whole blocks; -1 (the raw points)
 * when even the finest blocks are wider.
 */
export function chooseLevel(lo: bigint, hi: bigint, buckets: number): number {
  const span = hi - lo + 1n;
  let chosen = -1;
  for (const { level, shift } of ROLLUP_LEVELS) if ((1n << BigInt(shift)) * BigInt(buckets) <= span) chosen = level;
  return chosen;
}

/** chooseLevel in SQL, over numeric expressions `lo` and `hi`. */
export function chooseLevelSql(lo: string, hi: string, buckets: number): string {
  const cases = [...ROLLUP_LEVELS]
    .reverse()
    .map(
      ({ level, shift }) =>
        `WHEN ${hi}::numeric - ${lo} + 1 >= ${(1n << BigInt(shift)) * BigInt(buckets)} THEN ${level}`,
    );
  return `CASE ${cases.join(" ")} ELSE -1 END`;
}
