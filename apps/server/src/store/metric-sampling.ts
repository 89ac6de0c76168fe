import type { Knex } from "knex";

/** SQL of metrics/get-history-bulk-interval: downsampled histories of one key over many runs. */

export interface SampleOptions {
  /** Inclusive step range; both or neither. */
  startStep?: number;
  endStep?: number;
  /** Most points per run. */
  maxResults: number;
}

export interface SampledPoint {
  runId: string;
  key: string;
  value: number;
  timestamp: number;
  step: number;
}

/**
 * One query, sampled in the database: per run, the points in range are counted; a run with at
 * most `maxResults` points comes back whole. A longer one is cut into floor(maxResults / 4) buckets
 * (at least one) of equal step width, and one hash aggregation over the index-only scan keeps each
 * bucket's first and last point (by step, timestamp) and its minimum and maximum (NaN never wins
 * either), as arrays compared element by element, so no sort of the history is needed and at most
 * maxResults points per run leave the database; spikes survive. With maxResults below 4 the single
 * bucket keeps first, last, maximum and minimum in that order of preference.
 */
export async function sampleMetricHistories(db: Knex, runIds: readonly string[], key: string, options: SampleOptions): Promise<SampledPoint[]> {
  if (runIds.length === 0) return [];
  const buckets = Math.max(1, Math.floor(options.maxResults / 4));
  const ranged = options.startStep !== undefined && options.endStep !== undefined;
  const where = (alias: string) =>
    `${alias}key = ? AND ${alias}run_uuid IN (${runIds.map(() => "?").join(", ")})` +
    (ranged ? ` AND ${alias}step >= CAST(? AS bigint) AND ${alias}step <= CAST(? AS bigint)` : "");
  const whereBindings: unknown[] = [key, ...runIds, ...(ranged ? [options.startStep, options.endStep] : [])];
  const sql = `
    WITH bounds AS (
      SELECT run_uuid, min(step) AS lo, max(step) AS hi, count(*) AS n
        FROM metrics WHERE ${where("")} GROUP BY run_uuid
    ),
    whole AS (
      SELECT m.run_uuid, m.step, m.timestamp, m.value, 0 AS preference
        FROM metrics m JOIN bounds b ON b.run_uuid = m.run_uuid AND b.n <= CAST(? AS bigint)
       WHERE ${where("m.")}
    ),
    buckets AS (
      SELECT m.run_uuid,
             min(ARRAY[m.step, m.timestamp, m.value]::float8[]) AS first,
             max(ARRAY[m.step, m.timestamp, m.value]::float8[]) AS last,
             min(ARRAY[m.value, m.step, m.timestamp]::float8[]) FILTER (WHERE m.value <> 'NaN') AS low,
             max(ARRAY[m.value, -m.step, -m.timestamp]::float8[]) FILTER (WHERE m.value <> 'NaN') AS high
        FROM metrics m JOIN bounds b ON b.run_uuid = m.run_uuid AND b.n > CAST(? AS bigint)
       WHERE ${where("m.")}
       GROUP BY m.run_uuid, ((m.step - b.lo) * CAST(? AS bigint)) / (b.hi - b.lo + 1)
    ),
    picked AS (
      SELECT run_uuid, CAST(p[1] AS bigint) AS step, CAST(p[2] AS bigint) AS timestamp, p[3] AS value, preference
        FROM buckets,
             LATERAL (VALUES (first, 1), (last, 2), (ARRAY[-high[2], -high[3], high[1]], 3), (ARRAY[low[2], low[3], low[1]], 4)) AS v(p, preference)
       WHERE p[1] IS NOT NULL
    ),
    distinct_points AS (
      SELECT run_uuid, step, timestamp, value, min(preference) AS preference
        FROM picked GROUP BY run_uuid, step, timestamp, value
    ),
    capped AS (
      SELECT *, row_number() OVER (PARTITION BY run_uuid ORDER BY preference, step, timestamp) AS rank
        FROM distinct_points
    )
    SELECT run_uuid, step, timestamp, value FROM whole
    UNION ALL
    SELECT run_uuid, step, timestamp, value FROM capped WHERE rank <= CAST(? AS bigint)
    ORDER BY run_uuid, step, timestamp`;
  const bindings = [...whereBindings, options.maxResults, ...whereBindings, options.maxResults, ...whereBindings, buckets, options.maxResults];
  const result = await db.raw(sql, bindings as Knex.RawBinding[]);
  const rows = (result.rows ?? result) as Array<{ run_uuid: string; value: number | string; timestamp: number | string; step: number | string }>;
  return rows.map((row) => ({ runId: row.run_uuid, key, value: Number(row.value), timestamp: Number(row.timestamp), step: Number(row.step) }));
}
