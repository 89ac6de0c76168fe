import type { Knex } from "knex";

/**
 * Indexes for runs/search over large run tables (issue 9; plans in docs/benchmarks/).
 *
 * - latest_metrics and params: the primary key (run_uuid, key) carries the value, and the
 *   (key, value) index carries the run id, so a metric or param condition checked per run, an
 *   order-by join, and a walk of one key's values in order (the first bucket of an order by a
 *   metric) are index-only scans. Param values are at most 500 bytes, so the entries stay far
 *   below a btree entry's limit (2704 bytes).
 * - metrics: the (run_uuid, key, id) index carries value, timestamp and step, so a metric's
 *   history is read in id order from the index alone, page after page (metrics/get-history), and
 *   a page costs its own rows only (with the heap, PostgreSQL preferred a bitmap scan of every
 *   remaining row plus a sort, for each page). It replaces metrics_run_key_idx.
 * - tags: values may be 5000 bytes, more than a btree entry holds, so the (key, value) btree of
 *   0001 rejected long, incompressible tag values. Equality on a tag value uses a hash index
 *   (as model_versions.source does); per-run tag conditions use the primary key.
 *
 * One statement per call: PGlite runs parameterized queries, which take a single command.
 */
const UP = [
  `ALTER TABLE latest_metrics DROP CONSTRAINT latest_metrics_pkey, ADD CONSTRAINT latest_metrics_pkey PRIMARY KEY (run_uuid, key) INCLUDE (value)`,
  `DROP INDEX latest_metrics_key_value_idx`,
  `CREATE INDEX latest_metrics_key_value_idx ON latest_metrics (key, value) INCLUDE (run_uuid)`,
  `ALTER TABLE params DROP CONSTRAINT params_pkey, ADD CONSTRAINT params_pkey PRIMARY KEY (run_uuid, key) INCLUDE (value)`,
  `DROP INDEX params_key_value_idx`,
  `CREATE INDEX params_key_value_idx ON params (key, value) INCLUDE (run_uuid)`,
  `CREATE INDEX metrics_history_idx ON metrics (run_uuid, key, id) INCLUDE (value, timestamp, step)`,
  `DROP INDEX metrics_run_key_idx`,
  `DROP INDEX tags_key_value_idx`,
  `CREATE INDEX tags_value_hash_idx ON tags USING hash (value)`,
];

const DOWN = [
  `DROP INDEX IF EXISTS tags_value_hash_idx`,
  `CREATE INDEX IF NOT EXISTS tags_key_value_idx ON tags (key, value)`,
  `CREATE INDEX IF NOT EXISTS metrics_run_key_idx ON metrics (run_uuid, key, id)`,
  `DROP INDEX IF EXISTS metrics_history_idx`,
  `DROP INDEX IF EXISTS params_key_value_idx`,
  `CREATE INDEX params_key_value_idx ON params (key, value)`,
  `ALTER TABLE params DROP CONSTRAINT params_pkey, ADD CONSTRAINT params_pkey PRIMARY KEY (run_uuid, key)`,
  `DROP INDEX IF EXISTS latest_metrics_key_value_idx`,
  `CREATE INDEX latest_metrics_key_value_idx ON latest_metrics (key, value)`,
  `ALTER TABLE latest_metrics DROP CONSTRAINT latest_metrics_pkey, ADD CONSTRAINT latest_metrics_pkey PRIMARY KEY (run_uuid, key)`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of DOWN) await knex.raw(statement);
}
