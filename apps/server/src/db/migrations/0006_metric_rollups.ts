import type { Knex } from "knex";

/**
 * Pre-aggregated metric histories for metrics/get-history-bulk-interval (store/metric-rollups.ts).
 *
 * - metric_rollups: for every (run, key) and each of four levels, one row per block of steps
 *   (block = floor(step / 16^(level + 1)), so blocks of 16, 256, 4096 and 65536 steps, each block
 *   of a level made of 16 blocks of the level below), holding the block's point count and its
 *   first point (smallest (step, timestamp, value)), last point (largest), lowest and highest
 *   point by value (NaN never counts; ties go to the smallest (step, timestamp); NULL when the
 *   block holds only NaN). Only blocks holding points exist, so sparse or huge steps cost one row
 *   per point at most. insertMetrics keeps it up to date in the statement that inserts the points;
 *   rows go with their run (ON DELETE CASCADE).
 * - metrics_point_key is rebuilt with step before timestamp: the same unique constraint (a set of
 *   columns; ON CONFLICT names it by its columns), now also the index of a step range of one
 *   (run, key), index-only, which the sampler's exact counts and narrow ranges read.
 * - Existing points are rolled up here (the same aggregation as insertMetrics' statement).
 *
 * Steps and timestamps are bigints; to aggregate them exactly in float8 arrays (hash aggregation,
 * no sort), each is split in two exact float8s: x >> 26 and x & (2^26 - 1).
 * One statement per call: PGlite runs parameterized queries, which take a single command.
 */
const split = (x: string) => `(${x} >> 26)::float8, (${x} & 67108863)::float8`;
const negSplit = (x: string) => `-(${x} >> 26)::float8, -(${x} & 67108863)::float8`;
const join = (a: string, i: number) => `(${a}[${i}]::bigint * 67108864 + ${a}[${i + 1}]::bigint)`;
const joinNeg = (a: string, i: number) => `((-${a}[${i}])::bigint * 67108864 + (-${a}[${i + 1}])::bigint)`;

const BACKFILL = `
  INSERT INTO metric_rollups (run_uuid, key, level, block, n, first_step, first_timestamp, first_value, last_step, last_timestamp, last_value,
                              min_step, min_timestamp, min_value, max_step, max_timestamp, max_value)
  SELECT run_uuid, key, level, block, n, ${join("first", 1)}, ${join("first", 3)}, first[5], ${join("last", 1)}, ${join("last", 3)}, last[5],
         ${join("low", 2)}, ${join("low", 4)}, low[1], ${joinNeg("high", 2)}, ${joinNeg("high", 4)}, high[1]
    FROM (
      SELECT m.run_uuid, m.key, l.level, m.step >> l.shift AS block, count(*) AS n,
             min(ARRAY[${split("m.step")}, ${split("m.timestamp")}, m.value]) AS first,
             max(ARRAY[${split("m.step")}, ${split("m.timestamp")}, m.value]) AS last,
             min(ARRAY[m.value, ${split("m.step")}, ${split("m.timestamp")}]) FILTER (WHERE m.value <> 'NaN') AS low,
             max(ARRAY[m.value, ${negSplit("m.step")}, ${negSplit("m.timestamp")}]) FILTER (WHERE m.value <> 'NaN') AS high
        FROM metrics m CROSS JOIN (VALUES (0, 4), (1, 8), (2, 12), (3, 16)) AS l (level, shift)
       GROUP BY m.run_uuid, m.key, l.level, m.step >> l.shift
    ) AS rolled`;

const UP = [
  `CREATE UNIQUE INDEX metrics_point_step_key ON metrics (run_uuid, key, step, timestamp, value)`,
  `DROP INDEX metrics_point_key`,
  `ALTER INDEX metrics_point_step_key RENAME TO metrics_point_key`,
  `CREATE TABLE metric_rollups (
     run_uuid        char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
     key             text NOT NULL,
     level           smallint NOT NULL,
     block           bigint NOT NULL,
     n               bigint NOT NULL,
     first_step      bigint NOT NULL,
     first_timestamp bigint NOT NULL,
     first_value     double precision NOT NULL,
     last_step       bigint NOT NULL,
     last_timestamp  bigint NOT NULL,
     last_value      double precision NOT NULL,
     min_step        bigint,
     min_timestamp   bigint,
     min_value       double precision,
     max_step        bigint,
     max_timestamp   bigint,
     max_value       double precision,
     PRIMARY KEY (run_uuid, key, level, block)
   ) WITH (fillfactor = 80)`,
  BACKFILL,
];

const DOWN = [
  `DROP TABLE IF EXISTS metric_rollups`,
  `CREATE UNIQUE INDEX metrics_point_time_key ON metrics (run_uuid, key, timestamp, step, value)`,
  `DROP INDEX metrics_point_key`,
  `ALTER INDEX metrics_point_time_key RENAME TO metrics_point_key`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of DOWN) await knex.raw(statement);
}
