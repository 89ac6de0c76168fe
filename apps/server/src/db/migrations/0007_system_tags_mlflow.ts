import type { Knex } from "knex";

/**
 * Run system tags are stored under MLflow's names (`mlflow.user`, `mlflow.runName`, ...) and
 * presented per request path (core/system-tags.ts). Until now a server with the default namespace
 * stored them as `tracker.*`: those rows become `mlflow.*`. Where a run holds both `tracker.x` and
 * `mlflow.x` (an MLflow client's tag that the server did not read as a system tag), the
 * `tracker.x` value wins: it is the one the server and the web UI used (`tracker.runName` is the
 * run's name). One statement per call: PGlite runs parameterized queries, which take one command.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM tags m USING tags t
     WHERE t.run_uuid = m.run_uuid AND t.key LIKE 'tracker.%' AND m.key = 'mlflow.' || substr(t.key, 9)`);
  await knex.raw(`UPDATE tags SET key = 'mlflow.' || substr(key, 9) WHERE key LIKE 'tracker.%'`);
}

/** Back to `tracker.*` for every `mlflow.*` run tag (an older server reads them so by default). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM tags t USING tags m
     WHERE t.run_uuid = m.run_uuid AND m.key LIKE 'mlflow.%' AND t.key = 'tracker.' || substr(m.key, 8)`);
  await knex.raw(`UPDATE tags SET key = 'tracker.' || substr(key, 8) WHERE key LIKE 'mlflow.%'`);
}
