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
 * One query, sampled in the database with window functions: each run's points in range are
 * numbered in (step, timestamp, id) order and, when there are more than `maxResults`, cut into
 * floor(maxResults / 4) buckets (at least one) of consecutive points; each bucket keeps its first,
 * last, minimum and maximum point (NaN never wins min or max), so at most maxResults points per run
 * leave the database and spikes survive (below 4, the single bucket keeps first, last, maximum,
 * minimum in that order of preference). Runs with few points come back whole.
 */
export async function sampleMetricHistories(db: Knex, runIds: readonly string[], key: string, options: SampleOptions): Promise<SampledPoint[]> {
  if (runIds.length === 0) return [];
  const buckets = Math.max(1, Math.floor(options.maxResults / 4));
  const ranged = options.startStep !== undefined && options.endStep !== undefined;
  const bindings: unknown[] = [key, ...runIds];
  if (ranged) bindings.push(options.startStep, options.endStep);
  bindings.push(options.maxResults, buckets, options.maxResults);
  const sql = `
    WITH points AS (
      SELECT run_uuid, key, value, timestamp, step, id,
             row_number() OVER (PARTITION BY run_uuid ORDER BY step, timestamp, id) AS position,
             count(*) OVER (PARTITION BY run_uuid) AS total
        FROM metrics
       WHERE key = ? AND run_uuid IN (${runIds.map(() => "?").join(", ")})
             ${ranged ? "AND step >= CAST(? AS bigint) AND step <= CAST(? AS bigint)" : ""}
    ),
    bucketed AS (
      SELECT *, CASE WHEN total <= CAST(? AS bigint) THEN position
                     ELSE ((position - 1) * CAST(? AS bigint)) / total END AS bucket
        FROM points
    ),
    ranked AS (
      SELECT *,
             row_number() OVER (PARTITION BY run_uuid, bucket ORDER BY position) AS first_rank,
             row_number() OVER (PARTITION BY run_uuid, bucket ORDER BY position DESC) AS last_rank,
             row_number() OVER (PARTITION BY run_uuid, bucket ORDER BY (value = 'NaN'::float8), value, position) AS min_rank,
             row_number() OVER (PARTITION BY run_uuid, bucket ORDER BY (value = 'NaN'::float8), value DESC, position) AS max_rank
        FROM bucketed
    ),
    kept AS (
      SELECT *,
             row_number() OVER (PARTITION BY run_uuid ORDER BY
               CASE WHEN first_rank = 1 THEN 1 WHEN last_rank = 1 THEN 2 WHEN max_rank = 1 THEN 3 ELSE 4 END, position) AS preference
        FROM ranked
       WHERE first_rank = 1 OR last_rank = 1 OR min_rank = 1 OR max_rank = 1
    )
    SELECT run_uuid, key, value, CAST(timestamp AS text) AS timestamp, CAST(step AS text) AS step
      FROM kept
     WHERE preference <= CAST(? AS bigint)
     ORDER BY run_uuid, position`;
  const result = await db.raw(sql, bindings as Knex.RawBinding[]);
  const rows = (result.rows ?? result) as Array<{ run_uuid: string; key: string; value: number | string; timestamp: string; step: string }>;
  return rows.map((row) => ({ runId: row.run_uuid, key: row.key, value: Number(row.value), timestamp: Number(row.timestamp), step: Number(row.step) }));
}
