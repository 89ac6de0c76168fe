import type { Knex } from "knex";

/**
 * A metric point is stored once (as MLflow's store does): logging a value already stored for the
 * same (run, key, timestamp, step, value) is skipped, by `INSERT ... ON CONFLICT DO NOTHING` on
 * this unique index (PostgreSQL's float ordering counts NaN equal to NaN, so NaN points are
 * de-duplicated too). Existing duplicates are removed first, keeping the earliest row of each
 * point; the removed rows are identical in value to the kept one, so latest_metrics stays right.
 */
const UP = [
  `DELETE FROM metrics WHERE id IN (
     SELECT id FROM (
       SELECT id, row_number() OVER (PARTITION BY run_uuid, key, timestamp, step, value ORDER BY id) AS n FROM metrics
     ) AS numbered WHERE n > 1
   )`,
  `CREATE UNIQUE INDEX metrics_point_key ON metrics (run_uuid, key, timestamp, step, value)`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS metrics_point_key`);
}
