import type { Knex } from "knex";
import { runSqlScript } from "../sql-script.js";

/**
 * MLflow 3's logged models and the metric linkage (model, dataset) of metric points.
 *
 * - logged_models: one row per model (`m-<32 hex>`), soft-deleted through lifecycle_stage as
 *   MLflow does; status holds MLflow's LoggedModelStatus numbers (1 PENDING, 2 READY, 3 UPLOAD_FAILED)
 *   so that ordering by status sorts as MLflow's store does. Tags and params per (model, key).
 * - logged_model_metrics: the points logged with a model_id (runs/log-metric, runs/log-batch),
 *   written by the statement that writes the run's point; one row per (model, key, timestamp,
 *   step, run). `id` keeps the logging order, in which a model's metrics are answered.
 * - metrics gets the nullable columns model_id, dataset_name, dataset_digest: ADD COLUMN without a
 *   default only changes the catalog (no table rewrite, no index build), so it is instant on a
 *   large table; rows logged without them stay NULL and cost nothing.
 * - model_versions gets the nullable model_id and storage_location of versions registered from a
 *   logged model (`source: models:/<id>`): get-download-uri answers storage_location.
 */
export async function up(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    CREATE TABLE logged_models (
      model_id                  text PRIMARY KEY,
      experiment_id             bigint NOT NULL REFERENCES experiments (experiment_id) ON DELETE CASCADE,
      name                      text NOT NULL,
      artifact_location         text NOT NULL,
      creation_timestamp_ms     bigint NOT NULL,
      last_updated_timestamp_ms bigint NOT NULL,
      status                    smallint NOT NULL,
      lifecycle_stage           text NOT NULL DEFAULT 'active' CHECK (lifecycle_stage IN ('active', 'deleted')),
      model_type                text NOT NULL DEFAULT '',
      source_run_id             text NOT NULL DEFAULT '',
      status_message            text NOT NULL DEFAULT ''
    );
    CREATE INDEX logged_models_experiment_order_idx
      ON logged_models (experiment_id, creation_timestamp_ms DESC, model_id) WHERE lifecycle_stage = 'active';
    CREATE INDEX logged_models_source_run_idx ON logged_models (source_run_id);

    CREATE TABLE logged_model_tags (
      model_id text NOT NULL REFERENCES logged_models (model_id) ON DELETE CASCADE,
      key      text NOT NULL,
      value    text NOT NULL,
      PRIMARY KEY (model_id, key)
    );

    CREATE TABLE logged_model_params (
      model_id text NOT NULL REFERENCES logged_models (model_id) ON DELETE CASCADE,
      key      text NOT NULL,
      value    text NOT NULL,
      PRIMARY KEY (model_id, key)
    );

    CREATE TABLE logged_model_metrics (
      id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      model_id       text NOT NULL REFERENCES logged_models (model_id) ON DELETE CASCADE,
      key            text NOT NULL,
      value          double precision NOT NULL,
      timestamp      bigint NOT NULL,
      step           bigint NOT NULL,
      run_id         text NOT NULL,
      experiment_id  bigint,
      dataset_name   text,
      dataset_digest text,
      UNIQUE (model_id, key, timestamp, step, run_id)
    );
    CREATE INDEX logged_model_metrics_model_idx ON logged_model_metrics (model_id, id);

    ALTER TABLE metrics ADD COLUMN model_id text, ADD COLUMN dataset_name text, ADD COLUMN dataset_digest text;

    ALTER TABLE model_versions ADD COLUMN model_id text, ADD COLUMN storage_location text;
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    ALTER TABLE model_versions DROP COLUMN IF EXISTS model_id, DROP COLUMN IF EXISTS storage_location;
    ALTER TABLE metrics DROP COLUMN IF EXISTS model_id, DROP COLUMN IF EXISTS dataset_name, DROP COLUMN IF EXISTS dataset_digest;
    DROP TABLE IF EXISTS logged_model_metrics, logged_model_params, logged_model_tags, logged_models;
  `,
  );
}
