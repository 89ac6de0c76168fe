import type { Knex } from "knex";
import type { ExperimentRecord, KeyValue } from "../domain/records.js";
import { runStatement } from "./prepared.js";
import { toExperiment, type ExperimentRow } from "./rows.js";

/** SQL for experiments and their tags. */

/**
 * Creates an experiment with its tags in one statement (no transaction: a statement is atomic by
 * itself); its id comes from the sequence, and without an artifact location it gets
 * `locationPrefix` followed by the id. Returns the id. A name in use fails with PostgreSQL's unique
 * violation.
 */
export async function insertExperiment(
  db: Knex,
  row: { name: string; artifactLocation: string | undefined; now: number },
  locationPrefix: string,
  tags: KeyValue[],
): Promise<number> {
  // A key given twice keeps its last value.
  const unique = [...new Map(tags.map((t) => [t.key, t.value]))];
  const tagged =
    unique.length === 0
      ? ""
      : `, tagged AS (
         INSERT INTO experiment_tags (experiment_id, key, value)
         SELECT c.experiment_id, v.key, v.value FROM created c CROSS JOIN (VALUES ${unique.map(() => "(CAST(? AS text), CAST(? AS text))").join(", ")}) AS v (key, value)
       )`;
  const result = await db.raw(
    `WITH created AS (
       INSERT INTO experiments (experiment_id, name, artifact_location, lifecycle_stage, creation_time, last_update_time)
       SELECT id, ?, COALESCE(CAST(? AS text), CAST(? AS text) || id), 'active', ?, ?
         FROM (SELECT nextval('experiments_id_seq') AS id) AS next
       RETURNING experiment_id
     )${tagged}
     SELECT experiment_id FROM created`,
    [row.name, row.artifactLocation ?? null, locationPrefix, row.now, row.now, ...unique.flat()],
  );
  return Number((result.rows as Array<{ experiment_id: number | string }>)[0]!.experiment_id);
}

/**
 * Sets an active experiment's tag and its last update time in one statement, the experiment's row
 * locked first (as the transaction this replaces did). Returns the experiment's lifecycle stage
 * (undefined: no such experiment); nothing is written unless it is active.
 */
/** Creates the experiment `Default` (id 0) unless it exists. */
export async function insertDefaultExperiment(db: Knex, artifactLocation: string, now: number): Promise<void> {
  await db.raw(
    `INSERT INTO experiments (experiment_id, name, artifact_location, lifecycle_stage, creation_time, last_update_time)
     VALUES (0, 'Default', ?, 'active', ?, ?) ON CONFLICT DO NOTHING`,
    [artifactLocation, now, now],
  );
}

export async function setExperimentTag(db: Knex, id: number, tag: KeyValue, now: number): Promise<string | undefined> {
  const active = "EXISTS (SELECT 1 FROM experiment WHERE lifecycle_stage = 'active')";
  const result = await runStatement(
    db,
    `WITH experiment AS (SELECT lifecycle_stage FROM experiments WHERE experiment_id = ? FOR UPDATE),
     tagged AS (
       INSERT INTO experiment_tags (experiment_id, key, value) SELECT ?, ?, ? WHERE ${active}
       ON CONFLICT (experiment_id, key) DO UPDATE SET value = excluded.value
     ),
     touched AS (UPDATE experiments SET last_update_time = ? WHERE experiment_id = ? AND ${active})
     SELECT lifecycle_stage FROM experiment`,
    [id, id, tag.key, tag.value, now, id],
    "tracker_set_experiment_tag",
  );
  return (result.rows as Array<{ lifecycle_stage: string }>)[0]?.lifecycle_stage;
}

/**
 * Deletes an active experiment's tag in one statement, the experiment's row locked first. Returns
 * the experiment's lifecycle stage (undefined: no such experiment) and whether a tag was removed;
 * nothing is removed unless the experiment is active.
 */
export async function deleteExperimentTag(
  db: Knex,
  id: number,
  key: string,
): Promise<{ stage: string | undefined; removed: boolean }> {
  const result = await db.raw(
    `WITH experiment AS (SELECT lifecycle_stage FROM experiments WHERE experiment_id = ? FOR UPDATE),
     removed AS (
       DELETE FROM experiment_tags WHERE experiment_id = ? AND key = ?
          AND EXISTS (SELECT 1 FROM experiment WHERE lifecycle_stage = 'active')
       RETURNING 1
     )
     SELECT (SELECT lifecycle_stage FROM experiment) AS lifecycle_stage, (SELECT count(*)::int FROM removed) AS removed`,
    [id, id, key],
  );
  const row = (result.rows as Array<{ lifecycle_stage: string | null; removed: number }>)[0];
  return { stage: row?.lifecycle_stage ?? undefined, removed: (row?.removed ?? 0) > 0 };
}

/**
 * The select list of an experiment row over the table `experiments` with its tags as a JSON array
 * of [key, value] ordered by key: for loadExperiments and for experiments/search, which reads a
 * page's rows in its own statement (core/experiments.ts).
 */
export const EXPERIMENT_WITH_TAGS = `experiments.*,
       (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM experiment_tags t WHERE t.experiment_id = experiments.experiment_id) AS tags`;

/**
 * A tag key `t.key` as a request sees it whose namespace's prefix (`tracker.`) is the binding, given
 * four times: domain/system-tags.ts swapTagNamespace in SQL (the prefixes trade places; the
 * identity for `mlflow.`).
 */
const PRESENTED_TAG_KEY = `CASE
         WHEN CAST(? AS text) = 'mlflow.' THEN t.key
         WHEN starts_with(t.key, CAST(? AS text)) THEN 'mlflow.' || substr(t.key, length(CAST(? AS text)) + 1)
         WHEN starts_with(t.key, 'mlflow.') THEN CAST(? AS text) || substr(t.key, 8)
         ELSE t.key END`;

/**
 * The select list of an experiment over the table `experiments` as the JSON text of revision C's
 * Experiment (`json`, text): the fields in the order and the form that http/shapes.ts experimentOut
 * gives and JSON.stringify writes (ids as strings, times as numbers, the tags ordered by their
 * stored key and presented in the request's namespace), so that an answer of many experiments is
 * their texts joined, without parsing rows into objects and writing them again. Its one binding is
 * the namespace's prefix, four times (experimentJsonColumns).
 */
const EXPERIMENT_JSON = `'{"experiment_id":"' || CAST(experiments.experiment_id AS text)
       || '","name":' || CAST(to_json(experiments.name) AS text)
       || ',"artifact_location":' || CAST(to_json(experiments.artifact_location) AS text)
       || ',"lifecycle_stage":' || CAST(to_json(experiments.lifecycle_stage) AS text)
       || ',"last_update_time":' || CAST(experiments.last_update_time AS text)
       || ',"creation_time":' || CAST(experiments.creation_time AS text)
       || ',"tags":' || (SELECT COALESCE('[' || string_agg('{"key":' || CAST(to_json(${PRESENTED_TAG_KEY}) AS text) || ',"value":' || CAST(to_json(t.value) AS text) || '}', ',' ORDER BY t.key) || ']', '[]')
            FROM experiment_tags t WHERE t.experiment_id = experiments.experiment_id)
       || '}' AS json`;

/** EXPERIMENT_JSON with its tags presented in `namespace` (a request's, core/services.ts tagNamespaceOf). */
export const experimentJsonColumns = (namespace: string): { sql: string; bindings: string[] } => ({
  sql: EXPERIMENT_JSON,
  bindings: Array.from({ length: 4 }, () => `${namespace}.`),
});

type ExperimentWithTagsRow = ExperimentRow & { tags: Array<[string, string]> };

/** An experiment from a row selected with EXPERIMENT_WITH_TAGS. */
export const experimentWithTags = (row: object): ExperimentRecord => {
  const r = row as ExperimentWithTagsRow;
  return toExperiment(
    r,
    r.tags.map(([key, value]) => ({ key, value })),
  );
};

/**
 * Loads experiments with their tags, in the order of `ids`, in one statement: each experiment row
 * carries its tags as a JSON array ordered by key.
 */
export async function loadExperiments(db: Knex, ids: number[]): Promise<ExperimentRecord[]> {
  if (ids.length === 0) return [];
  const result = await runStatement(
    db,
    `SELECT ${EXPERIMENT_WITH_TAGS} FROM experiments WHERE experiments.experiment_id = ANY(CAST(? AS bigint[]))`,
    [ids],
    "tracker_load_experiments",
  );
  const rows = result.rows as ExperimentWithTagsRow[];
  const byId = new Map(rows.map((r) => [Number(r.experiment_id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [experimentWithTags(row)] : [];
  });
}

export async function findExperimentRow(db: Knex, id: number, forUpdate = false): Promise<ExperimentRow | undefined> {
  const query = db<ExperimentRow>("experiments").where({ experiment_id: id }).first();
  return forUpdate ? query.forUpdate() : query;
}

/** The active experiment with that name, else the most recently updated deleted one. */
export async function findExperimentIdByName(db: Knex, name: string): Promise<number | undefined> {
  const row = await db("experiments")
    .select("experiment_id")
    .where({ name })
    .orderByRaw("(lifecycle_stage = 'active') DESC, last_update_time DESC, experiment_id DESC")
    .first();
  return row ? Number(row.experiment_id) : undefined;
}

export async function updateExperimentRow(db: Knex, id: number, changes: Partial<ExperimentRow>): Promise<void> {
  await db("experiments").where({ experiment_id: id }).update(changes);
}

/** Marks the active runs of an experiment deleted along with it, or restores exactly those. */
export async function setRunsDeletedWithExperiment(db: Knex, id: number, deleted: boolean, now: number): Promise<void> {
  if (deleted) {
    await db("runs")
      .where({ experiment_id: id, lifecycle_stage: "active" })
      .update({ lifecycle_stage: "deleted", deleted_time: now, deleted_with_experiment: true });
  } else {
    await db("runs")
      .where({ experiment_id: id, deleted_with_experiment: true })
      .update({ lifecycle_stage: "active", deleted_time: null, deleted_with_experiment: false });
  }
}
