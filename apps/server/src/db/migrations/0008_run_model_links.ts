import type { Knex } from "knex";
import { runSqlScript } from "../sql-script.js";

/**
 * MLflow 3's links between runs and logged models: a run's model outputs (runs/outputs, with the
 * step at which the run produced the model) and its model inputs (runs/log-inputs with `models`).
 * - model_id is not a foreign key: MLflow records the link without checking that the model exists,
 *   and a link outlives its model's deletion.
 * - The primary key keeps one link per (run, direction, model): logging the same output twice is
 *   refused, the same input twice adds nothing.
 * - position keeps the order in which links were logged; the index on model_id serves a model's runs.
 */
export async function up(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    CREATE TABLE run_model_links (
      run_uuid  char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      direction text NOT NULL CHECK (direction IN ('input', 'output')),
      model_id  text NOT NULL,
      step      bigint,
      position  bigserial,
      PRIMARY KEY (run_uuid, direction, model_id),
      CHECK ((direction = 'output') = (step IS NOT NULL))
    );
    CREATE INDEX run_model_links_model_idx ON run_model_links (model_id, direction);
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE IF EXISTS run_model_links`);
}
