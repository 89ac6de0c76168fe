import type { Knex } from "knex";

/**
 * Tags of experiments, registered models, model versions and logged models are stored under
 * MLflow's system-tag names and presented per request path, as run tags since 0007 (see
 * domain/system-tags.ts). Until now they were stored as sent, so a tracker client's
 * `tracker.note.content` on an experiment was stored so: such rows become `mlflow.*`. Where an
 * owner holds both `tracker.x` and `mlflow.x`, the `tracker.x` value wins, as in 0007.
 */

/** Each tag table with the columns that name a tag's owner. */
const TAG_TABLES: ReadonlyArray<{ table: string; owner: readonly string[] }> = [
  { table: "experiment_tags", owner: ["experiment_id"] },
  { table: "registered_model_tags", owner: ["name"] },
  { table: "model_version_tags", owner: ["name", "version"] },
  { table: "logged_model_tags", owner: ["model_id"] },
];

/**
 * Renames every `<from>.x` key to `<to>.x`, dropping a `<to>.x` of the same owner first. One
 * statement per call: PGlite runs parameterized queries, which take one command.
 */
async function renamePrefix(knex: Knex, from: string, to: string): Promise<void> {
  for (const { table, owner } of TAG_TABLES) {
    const sameOwner = owner.map((column) => `k.${column} = d.${column}`).join(" AND ");
    await knex.raw(
      `DELETE FROM ${table} d USING ${table} k
        WHERE ${sameOwner} AND k.key LIKE '${from}.%' AND d.key = '${to}.' || substr(k.key, ${from.length + 2})`,
    );
    await knex.raw(`UPDATE ${table} SET key = '${to}.' || substr(key, ${from.length + 2}) WHERE key LIKE '${from}.%'`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await renamePrefix(knex, "tracker", "mlflow");
}

/** Back to `tracker.*` for every `mlflow.*` tag of these tables (an older server reads them so). */
export async function down(knex: Knex): Promise<void> {
  await renamePrefix(knex, "mlflow", "tracker");
}
