import type { Knex } from "knex";
import { runSqlScript } from "../sql-script.js";

/**
 * MLflow 2.x additions: model aliases (2.3) and dataset tracking (2.4).
 * - An alias names one version of one model: the primary key (name, alias) keeps one version per
 *   alias per model, and the foreign key to model_versions drops an alias with its version (and with
 *   its model, which drops the versions) and follows a model rename.
 * - A dataset is stored once per (experiment, name, digest); a run's inputs link it to datasets, with
 *   the input's own tags (such as `mlflow.data.context`). Logging the same dataset twice to a run
 *   adds nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await runSqlScript(
    knex,
    `
    CREATE TABLE registered_model_aliases (
      name    text NOT NULL,
      alias   text NOT NULL,
      version integer NOT NULL,
      PRIMARY KEY (name, alias),
      FOREIGN KEY (name, version) REFERENCES model_versions (name, version) ON UPDATE CASCADE ON DELETE CASCADE
    );
    CREATE INDEX registered_model_aliases_version_idx ON registered_model_aliases (name, version);

    CREATE TABLE datasets (
      dataset_uuid  char(32) PRIMARY KEY,
      experiment_id bigint NOT NULL REFERENCES experiments (experiment_id) ON DELETE CASCADE,
      name          text NOT NULL,
      digest        text NOT NULL,
      source_type   text NOT NULL,
      source        text NOT NULL,
      schema        text,
      profile       text,
      CONSTRAINT datasets_experiment_name_digest_uq UNIQUE (experiment_id, name, digest)
    );
    CREATE INDEX datasets_name_idx ON datasets (name);
    CREATE INDEX datasets_digest_idx ON datasets (digest);

    CREATE TABLE run_inputs (
      run_uuid     char(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
      dataset_uuid char(32) NOT NULL REFERENCES datasets (dataset_uuid) ON DELETE CASCADE,
      position     bigserial,
      PRIMARY KEY (run_uuid, dataset_uuid)
    );
    CREATE INDEX run_inputs_dataset_idx ON run_inputs (dataset_uuid);

    CREATE TABLE run_input_tags (
      run_uuid     char(32) NOT NULL,
      dataset_uuid char(32) NOT NULL,
      key          text NOT NULL,
      value        text NOT NULL,
      PRIMARY KEY (run_uuid, dataset_uuid, key),
      FOREIGN KEY (run_uuid, dataset_uuid) REFERENCES run_inputs (run_uuid, dataset_uuid) ON DELETE CASCADE
    );
    CREATE INDEX run_input_tags_key_value_idx ON run_input_tags (key, value);
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE IF EXISTS run_input_tags, run_inputs, datasets, registered_model_aliases CASCADE`);
}
