import type { Knex } from "knex";

/**
 * Indexes for the registry searches: names ordered and paged in the "C" collation (the order
 * the store uses on every database), the default model-version order, and equality on a
 * version's source (a hash index, because sources may be longer than a btree entry allows).
 * One statement per call: PGlite runs parameterized queries, which take a single command.
 */
const INDEXES = [
  `CREATE INDEX registered_models_name_c_idx ON registered_models (name COLLATE "C")`,
  `CREATE INDEX registered_models_updated_name_idx ON registered_models (last_updated_timestamp, name COLLATE "C")`,
  `CREATE INDEX model_versions_default_order_idx ON model_versions (last_updated_timestamp DESC, name COLLATE "C", version DESC)`,
  `CREATE INDEX model_versions_source_idx ON model_versions USING hash (source)`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of INDEXES) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const name of [
    "model_versions_source_idx",
    "model_versions_default_order_idx",
    "registered_models_updated_name_idx",
    "registered_models_name_c_idx",
  ]) {
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  }
}
