import type { Knex } from "knex";
import { byStep, byValue, byValueDesc, fromByStep, fromByValue, fromByValueDesc } from "../db/rollup-arrays.js";
import {
  INT64_MAX,
  INT64_MIN,
  ROLLUP_LEVELS,
  blockSteps,
  chooseLevelSql,
  countPieces,
  coveredBlocks,
} from "./metric-rollups.js";

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

/** A bigint bound as a parameter (exact beyond 2^53). */
const big = (x: bigint | undefined) => (x === undefined ? null : x.toString());

/**
 * One statement, sampled in the database from the rollups (store/metric-rollups.ts), so its cost
 * does not grow with the histories' length:
 * - `stats`: per run, the exact count and the first and last step of the points in range, from
 *   the range cut into rollup blocks (coarsest first) and the raw points of its two edges
 *   (countPieces: a few dozen index entries per run whatever the range);
 * - a run with at most `maxResults` points comes back whole (`whole`, an index range scan on
 *   (run_uuid, key, step));
 * - a longer one is cut into floor(maxResults / 4) buckets (at least one) of equal step width
 *   over its first..last step. Its `candidates` are the blocks of the coarsest level whose blocks
 *   are no wider than a bucket (chooseLevel) that lie wholly inside the range, plus the raw points
 *   of the range's partial blocks at both edges; when even 16-step blocks are wider than a bucket
 *   (a narrow range), all raw points in range. A block goes whole into the bucket of its first
 *   step, so bucket boundaries snap to block boundaries (a bucket may hold up to one block more
 *   or less than its width); raw points go by their own step.
 * - Each bucket keeps its first and last point (by step, timestamp, value) and its lowest and
 *   highest (NaN never wins either; ties to the earlier point), by one hash aggregation over
 *   exact float8 arrays; a point that is also an earlier one of its bucket is sent once, so at
 *   most 4 points per bucket and maxResults per run leave the database (with maxResults below 4
 *   the single bucket keeps first, last, maximum, minimum in that order of preference). Spikes
 *   survive.
 */
export async function sampleMetricHistories(
  db: Knex,
  runIds: readonly string[],
  key: string,
  options: SampleOptions,
): Promise<SampledPoint[]> {
  if (runIds.length === 0) return [];
  const { sql, bindings } = sampleStatement(runIds, key, options);
  const result = await db.raw(sql, bindings as Knex.RawBinding[]);
  const rows = (result.rows ?? result) as Array<{
    run_uuid: string;
    value: number | string;
    timestamp: number | string;
    step: number | string;
  }>;
  return rows.map((row) => ({
    runId: row.run_uuid,
    key,
    value: Number(row.value),
    timestamp: Number(row.timestamp),
    step: Number(row.step),
  }));
}

/**
 * The same points as sampleMetricHistories, as the JSON text of the answer's `metrics` array
 * elements (`{"key":…,"value":…,"timestamp":…,"step":…,"run_id":…}` joined by commas, in the same
 * order; empty for none), written by PostgreSQL: the server then neither decodes the rows (5,000
 * for 100 runs of 50 points) nor serialises them, ~40% of its CPU for such an answer (issue 31).
 * Non-finite values come out as the strings "NaN", "Infinity" and "-Infinity" (PostgreSQL's JSON
 * writes numbers that are not valid JSON as strings), as doubleOut writes them; finite ones as
 * PostgreSQL prints a float8 (the shortest text that reads back exactly, e.g. `1e-05`), which is
 * the same number for any JSON reader.
 */
export async function sampleMetricHistoriesJson(
  db: Knex,
  runIds: readonly string[],
  key: string,
  options: SampleOptions,
): Promise<string> {
  if (runIds.length === 0) return "";
  const { sql, bindings } = sampleStatement(runIds, key, options);
  const result = await db.raw(
    // Each point's object as compact text, its fields in the API's order (json_build_object
    // would put spaces around every separator: 11% more text); the key is JSON already.
    `SELECT coalesce(string_agg(concat('{"key":', CAST(? AS text), ',"value":', to_json(s.value), ',"timestamp":', s.timestamp, ',"step":', s.step, ',"run_id":', to_json(s.run_uuid), '}'), ',' ORDER BY s.run_uuid, s.step, s.timestamp), '') AS json
       FROM (${sql}) AS s`,
    [JSON.stringify(key), ...bindings] as Knex.RawBinding[],
  );
  const rows = (result.rows ?? result) as Array<{ json: string }>;
  return rows[0]?.json ?? "";
}

/** The statement of sampleMetricHistories (see there) and its bindings. */
function sampleStatement(
  runIds: readonly string[],
  key: string,
  options: SampleOptions,
): { sql: string; bindings: unknown[] } {
  const buckets = Math.max(1, Math.floor(options.maxResults / 4));
  const ranged = options.startStep !== undefined && options.endStep !== undefined;
  const start = ranged ? BigInt(options.startStep as number) : INT64_MIN;
  const end = ranged ? BigInt(options.endStep as number) : INT64_MAX;
  const runs = runIds.map(() => "?").join(", ");

  const pieces = countPieces(start, end);
  const statParts: string[] = [];
  const statBindings: unknown[] = [];
  for (const b of pieces.blocks) {
    statParts.push(
      `SELECT run_uuid, n, first_step AS lo, last_step AS hi FROM metric_rollups
        WHERE run_uuid IN (${runs}) AND key = ? AND level = ${b.level} AND block >= CAST(? AS bigint) AND block <= CAST(? AS bigint)`,
    );
    statBindings.push(...runIds, key, big(b.from), big(b.to));
  }
  for (const r of pieces.raw) {
    statParts.push(
      `SELECT run_uuid, 1 AS n, step AS lo, step AS hi FROM metrics
        WHERE run_uuid IN (${runs}) AND key = ? AND step >= CAST(? AS bigint) AND step <= CAST(? AS bigint)`,
    );
    statBindings.push(...runIds, key, big(r.from), big(r.to));
  }

  // Per level (and -1, the raw points): the blocks wholly inside the range, and the raw steps of
  // its edges ([start, rawBelow] and [rawAbove, end]; NULL when empty).
  const levelRows: string[] = [];
  const levelBindings: unknown[] = [];
  for (const { level, shift } of [{ level: -1, shift: 0 }, ...ROLLUP_LEVELS]) {
    const covered = level < 0 ? undefined : coveredBlocks(shift, start, end);
    const steps = covered && blockSteps(shift, covered);
    levelRows.push("(CAST(? AS int), CAST(? AS bigint), CAST(? AS bigint), CAST(? AS bigint), CAST(? AS bigint))");
    levelBindings.push(
      level,
      big(covered?.from ?? 1n),
      big(covered?.to ?? 0n),
      steps === undefined ? big(end) : steps.from > start ? big(steps.from - 1n) : null,
      steps === undefined ? null : steps.to < end ? big(steps.to + 1n) : null,
    );
  }

  const first = (s: string, t: string, v: string) => byStep(s, t, v);
  const named = (prefix: string, [step, timestamp, value]: readonly [string, string, string]) =>
    `${step} AS ${prefix}_step, ${timestamp} AS ${prefix}_ts, ${value} AS ${prefix}_value`;
  // Raw points of a run's partial edge blocks (or of a narrow range) as candidates of their own bucket.
  const rawCandidates = (stepRange: string) => `
      SELECT p.run_uuid, p.lo, p.hi, m.step, ${first("m.step", "m.timestamp", "m.value")}, ${first("m.step", "m.timestamp", "m.value")},
             CASE WHEN m.value <> 'NaN' THEN ${byValue("m.step", "m.timestamp", "m.value")} END,
             CASE WHEN m.value <> 'NaN' THEN ${byValueDesc("m.step", "m.timestamp", "m.value")} END
        FROM plan p JOIN metrics m ON m.run_uuid = p.run_uuid AND m.key = ? AND ${stepRange}`;
  const sql = `
    WITH stats AS (
      SELECT run_uuid, sum(n) AS n, min(lo) AS lo, max(hi) AS hi
        FROM (${statParts.join("\n      UNION ALL ")}) AS pieces GROUP BY run_uuid
    ),
    levels (level, block_from, block_to, raw_below, raw_above) AS (VALUES ${levelRows.join(", ")}),
    plan AS (
      SELECT s.run_uuid, s.lo, s.hi, l.* FROM stats s JOIN levels l ON l.level = ${chooseLevelSql("s.lo", "s.hi", buckets)}
       WHERE s.n > CAST(? AS bigint)
    ),
    -- LATERAL: an index range scan per run. As a plain join the planner, which expects far more
    -- runs from stats than there are, could pick a hash join over a sequential scan of metrics
    -- (seen: 77 ms of a 105 ms statement, and a 7x slower plan with more data in the database).
    whole AS (
      SELECT s.run_uuid, m.step, m.timestamp, m.value
        FROM stats s CROSS JOIN LATERAL (
          SELECT step, timestamp, value FROM metrics
           WHERE run_uuid = s.run_uuid AND key = ? AND step >= CAST(? AS bigint) AND step <= CAST(? AS bigint)
        ) AS m
       WHERE s.n <= CAST(? AS bigint)
    ),
    candidates AS (
      SELECT p.run_uuid, p.lo, p.hi, r.first_step AS at,
             ${first("r.first_step", "r.first_timestamp", "r.first_value")} AS first,
             ${first("r.last_step", "r.last_timestamp", "r.last_value")} AS last,
             CASE WHEN r.min_value IS NOT NULL THEN ${byValue("r.min_step", "r.min_timestamp", "r.min_value")} END AS low,
             CASE WHEN r.max_value IS NOT NULL THEN ${byValueDesc("r.max_step", "r.max_timestamp", "r.max_value")} END AS high
        FROM plan p JOIN metric_rollups r
          ON r.run_uuid = p.run_uuid AND r.key = ? AND r.level = p.level AND r.block >= p.block_from AND r.block <= p.block_to
      UNION ALL
      ${rawCandidates("m.step >= CAST(? AS bigint) AND m.step <= p.raw_below")}
      UNION ALL
      ${rawCandidates("m.step >= p.raw_above AND m.step <= CAST(? AS bigint)")}
    ),
    buckets AS (
      SELECT run_uuid, min(first) AS first, max(last) AS last, min(low) AS low, max(high) AS high
        FROM candidates
       GROUP BY run_uuid, div((at::numeric - lo) * ${buckets}, hi::numeric - lo + 1)
    ),
    decoded AS (
      SELECT run_uuid, ${named("f", fromByStep("first"))}, ${named("l", fromByStep("last"))},
             ${named("h", fromByValueDesc("high"))}, ${named("m", fromByValue("low"))}
        FROM buckets
    ),
    -- Each bucket's points, each once (a point that is also an earlier one is left out).
    picked AS (
      SELECT run_uuid, f_step AS step, f_ts AS timestamp, f_value AS value, 1 AS preference FROM decoded
      UNION ALL
      SELECT run_uuid, l_step, l_ts, l_value, 2 FROM decoded
       WHERE (l_step, l_ts, l_value) IS DISTINCT FROM (f_step, f_ts, f_value)
      UNION ALL
      SELECT run_uuid, h_step, h_ts, h_value, 3 FROM decoded
       WHERE h_step IS NOT NULL AND (h_step, h_ts, h_value) IS DISTINCT FROM (f_step, f_ts, f_value)
         AND (h_step, h_ts, h_value) IS DISTINCT FROM (l_step, l_ts, l_value)
      UNION ALL
      SELECT run_uuid, m_step, m_ts, m_value, 4 FROM decoded
       WHERE m_step IS NOT NULL AND (m_step, m_ts, m_value) IS DISTINCT FROM (f_step, f_ts, f_value)
         AND (m_step, m_ts, m_value) IS DISTINCT FROM (l_step, l_ts, l_value) AND (m_step, m_ts, m_value) IS DISTINCT FROM (h_step, h_ts, h_value)
    ),
    -- At most 4 points a bucket and floor(maxResults / 4) buckets: only below 4 is there a cap to apply.
    capped AS (
      ${
        options.maxResults >= 4
          ? "SELECT * FROM picked"
          : "SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY run_uuid ORDER BY preference, step, timestamp) AS rank FROM picked) AS ranked WHERE rank <= " +
            options.maxResults
      }
    )
    SELECT run_uuid, step, timestamp, value FROM whole
    UNION ALL
    SELECT run_uuid, step, timestamp, value FROM capped
    ORDER BY run_uuid, step, timestamp`;
  const bindings = [
    ...statBindings,
    ...levelBindings,
    options.maxResults,
    key,
    big(start),
    big(end),
    options.maxResults,
    key,
    key,
    big(start),
    key,
    big(end),
  ];
  return { sql, bindings };
}
