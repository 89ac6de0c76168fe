import type { Knex } from "knex";
import { runSqlScript } from "../sql-script.js";

/**
 * The initial schema: tracking (experiments, runs, params, tags, metrics, latest metrics)
 * and the model registry. Rules that must hold under concurrency live here as constraints.
 */
export async function up(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    CREATE TABLE experiments (
      experiment_id     bigint PRIMARY KEY,
      name              text NOT NULL,
      artifact_location text NOT NULL,
      lifecycle_stage   text NOT NULL DEFAULT 'active' CHECK (lifecycle_stage IN ('active', 'deleted')),
      creation_time     bigint NOT NULL,
      last_update_time  bigint NOT NULL
    );
    CREATE SEQUENCE experiments_id_seq START 1 OWNED BY experiments.experiment_id;
    ALTER TABLE experiments ALTER COLUMN experiment_id SET DEFAULT nextval('experiments_id_seq');
    -- Names are unique among active experiments; deleted ones may share a name (get-by-name rules).
    CREATE UNIQUE INDEX experiments_active_name_uq ON experiments (name) WHERE lifecycle_stage = 'active';
    CREATE INDEX experiments_name_idx ON experiments (name);
    CREATE INDEX experiments_creation_time_idx ON experiments (creation_time);
    CREATE INDEX experiments_last_update_time_idx ON experiments (last_update_time);

    CREATE TABLE experiment_tags (
      experiment_id bigint NOT NULL REFERENCES experiments (experiment_id) ON DELETE CASCADE,
      key           text NOT NULL,
      value         text NOT NULL,
      PRIMARY KEY (experiment_id, key)
    );

    CREATE TABLE runs (
      run_uuid         char(32) PRIMARY KEY,
      experiment_id    bigint NOT NULL REFERENCES experiments (experiment_id) ON DELETE CASCADE,
      run_name         text NOT NULL DEFAULT '',
      user_id          text NOT NULL DEFAULT '',
      status           text NOT NULL DEFAULT 'RUNNING'
                       CHECK (status IN ('RUNNING', 'SCHEDULED', 'FINISHED', 'FAILED', 'KILLED')),
      start_time       bigint NOT NULL,
      end_time         bigint,
      artifact_uri     text NOT NULL,
      lifecycle_stage  text NOT NULL DEFAULT 'active' CHECK (lifecycle_stage IN ('active', 'deleted')),
      deleted_time     bigint,
      -- Set when the run was deleted by deleting its experiment, so restoring the experiment
      -- restores exactly those runs (and not runs deleted on their own before).
      deleted_with_experiment boolean NOT NULL DEFAULT false
    );
    -- Default search order: start_time DESC, run_uuid; filtered per experiment and lifecycle.
    CREATE INDEX runs_experiment_order_idx ON runs (experiment_id, lifecycle_stage, start_time DESC, run_uuid);

    CREATE TABLE params (
      run_uuid char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      key      text NOT NULL,
      value    text NOT NULL,
      PRIMARY KEY (run_uuid, key)
    );
    CREATE INDEX params_key_value_idx ON params (key, value);

    CREATE TABLE tags (
      run_uuid char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      key      text NOT NULL,
      value    text NOT NULL,
      PRIMARY KEY (run_uuid, key)
    );
    CREATE INDEX tags_key_value_idx ON tags (key, value);

    -- Every logged metric value, append-only; id gives the insertion order.
    CREATE TABLE metrics (
      id        bigserial PRIMARY KEY,
      run_uuid  char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      key       text NOT NULL,
      value     double precision NOT NULL,
      timestamp bigint NOT NULL,
      step      bigint NOT NULL DEFAULT 0
    );
    CREATE INDEX metrics_run_key_idx ON metrics (run_uuid, key, id);

    -- One row per (run, key), maintained in the same transaction as the insert into metrics:
    -- value/timestamp/step follow revision C's rule (latest timestamp, then max value);
    -- last_* follow revisions A and B (the last logged value).
    CREATE TABLE latest_metrics (
      run_uuid       char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      key            text NOT NULL,
      value          double precision NOT NULL,
      timestamp      bigint NOT NULL,
      step           bigint NOT NULL,
      last_value     double precision NOT NULL,
      last_timestamp bigint NOT NULL,
      last_step      bigint NOT NULL,
      last_id        bigint NOT NULL,
      PRIMARY KEY (run_uuid, key)
    );
    CREATE INDEX latest_metrics_key_value_idx ON latest_metrics (key, value);

    CREATE TABLE registered_models (
      name                   text PRIMARY KEY,
      creation_timestamp     bigint NOT NULL,
      last_updated_timestamp bigint NOT NULL,
      description            text NOT NULL DEFAULT '',
      user_id                text NOT NULL DEFAULT '',
      -- Next version number to hand out; numbers are never reused, even after a delete.
      next_version           integer NOT NULL DEFAULT 1
    );
    CREATE INDEX registered_models_last_updated_idx ON registered_models (last_updated_timestamp);

    CREATE TABLE registered_model_tags (
      name  text NOT NULL REFERENCES registered_models (name) ON UPDATE CASCADE ON DELETE CASCADE,
      key   text NOT NULL,
      value text NOT NULL,
      PRIMARY KEY (name, key)
    );

    CREATE TABLE model_versions (
      name                    text NOT NULL REFERENCES registered_models (name) ON UPDATE CASCADE ON DELETE CASCADE,
      version                 integer NOT NULL,
      creation_timestamp      bigint NOT NULL,
      last_updated_timestamp  bigint NOT NULL,
      last_stage_transition   bigint NOT NULL,
      user_id                 text NOT NULL DEFAULT '',
      current_stage           text NOT NULL DEFAULT 'None'
                              CHECK (current_stage IN ('None', 'Staging', 'Production', 'Archived')),
      description             text NOT NULL DEFAULT '',
      source                  text NOT NULL,
      run_id                  text NOT NULL DEFAULT '',
      run_link                text NOT NULL DEFAULT '',
      status                  text NOT NULL DEFAULT 'READY'
                              CHECK (status IN ('PENDING_REGISTRATION', 'FAILED_REGISTRATION', 'READY')),
      status_message          text NOT NULL DEFAULT '',
      PRIMARY KEY (name, version)
    );
    CREATE INDEX model_versions_run_id_idx ON model_versions (run_id);
    CREATE INDEX model_versions_stage_idx ON model_versions (name, current_stage);

    CREATE TABLE model_version_tags (
      name    text NOT NULL,
      version integer NOT NULL,
      key     text NOT NULL,
      value   text NOT NULL,
      PRIMARY KEY (name, version, key),
      FOREIGN KEY (name, version) REFERENCES model_versions (name, version) ON UPDATE CASCADE ON DELETE CASCADE
    );
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS model_version_tags, model_versions, registered_model_tags, registered_models,
      latest_metrics, metrics, tags, params, runs, experiment_tags, experiments CASCADE;
  `);
}
