import type { Knex } from "knex";
import type { KeyValue, MetricRecord } from "../domain/records.js";
import { toMetric } from "./rows.js";

/** SQL for MLflow 3's logged models, their tags, params and metrics (migration 0007). */

export interface LoggedModelRow {
  model_id: string;
  experiment_id: number;
  name: string;
  artifact_location: string;
  creation_timestamp_ms: number;
  last_updated_timestamp_ms: number;
  status: number;
  lifecycle_stage: string;
  model_type: string;
  source_run_id: string;
  status_message: string;
}

/** A logged model with its tags and params (ordered by key) and its metrics (in logging order). */
export interface LoggedModelData {
  row: LoggedModelRow;
  tags: KeyValue[];
  params: KeyValue[];
  metrics: MetricRecord[];
}

/** A model's metric point as aggregated: [key, value, timestamp, step, run_id, dataset_name, dataset_digest]. */
type MetricTuple = [string, number | string, number, number, string, string | null, string | null];

interface LoggedModelDataRow extends LoggedModelRow {
  tags: Array<[string, string]>;
  params: Array<[string, string]>;
  metrics: MetricTuple[];
}

const toRow = (r: LoggedModelRow): LoggedModelRow => ({
  model_id: r.model_id,
  experiment_id: Number(r.experiment_id),
  name: r.name,
  artifact_location: r.artifact_location,
  creation_timestamp_ms: Number(r.creation_timestamp_ms),
  last_updated_timestamp_ms: Number(r.last_updated_timestamp_ms),
  status: Number(r.status),
  lifecycle_stage: r.lifecycle_stage,
  model_type: r.model_type,
  source_run_id: r.source_run_id,
  status_message: r.status_message,
});

function toMetricOfModel(modelId: string, m: MetricTuple): MetricRecord {
  const metric = toMetric(m[0], m[1] as number, m[2], m[3]);
  metric.modelId = modelId;
  metric.runId = m[4];
  if (m[5] !== null) metric.datasetName = m[5];
  if (m[6] !== null) metric.datasetDigest = m[6];
  return metric;
}

/**
 * Loads logged models with their tags, params and metrics, in the order of `ids`, in one statement
 * (JSON arrays aggregated by correlated subqueries on the primary keys). Deleted models are included.
 */
export async function loadLoggedModels(db: Knex | Knex.Transaction, ids: string[]): Promise<LoggedModelData[]> {
  if (ids.length === 0) return [];
  const result = await db.raw(
    `SELECT m.*,
       (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM logged_model_tags t WHERE t.model_id = m.model_id) AS tags,
       (SELECT COALESCE(json_agg(json_build_array(p.key, p.value) ORDER BY p.key), '[]') FROM logged_model_params p WHERE p.model_id = m.model_id) AS params,
       (SELECT COALESCE(json_agg(json_build_array(x.key, x.value, x.timestamp, x.step, x.run_id, x.dataset_name, x.dataset_digest) ORDER BY x.id), '[]')
          FROM logged_model_metrics x WHERE x.model_id = m.model_id) AS metrics
     FROM logged_models m WHERE m.model_id IN (${ids.map(() => "?").join(", ")})`,
    ids,
  );
  const byId = new Map((result.rows as LoggedModelDataRow[]).map((r) => [r.model_id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        row: toRow(r),
        tags: r.tags.map(([key, value]) => ({ key, value })),
        params: r.params.map(([key, value]) => ({ key, value })),
        metrics: r.metrics.map((m) => toMetricOfModel(r.model_id, m)),
      },
    ];
  });
}

export async function findLoggedModelRow(db: Knex | Knex.Transaction, id: string): Promise<LoggedModelRow | undefined> {
  const row = await db<LoggedModelRow>("logged_models").where({ model_id: id }).first();
  return row && toRow(row);
}

/**
 * Inserts a model in an active experiment, with its params and tags, in one statement; the
 * experiment row stays locked (FOR SHARE) until the model is in. The artifact location is the
 * experiment's (trailing slashes dropped) followed by `artifactSuffix`. Returns the experiment's
 * stage (undefined: no such experiment) and whether the model was created. Repeated param or tag
 * keys violate the primary keys (SQLSTATE 23505), as in MLflow's store.
 */
export async function insertLoggedModel(
  db: Knex,
  row: Omit<LoggedModelRow, "artifact_location" | "lifecycle_stage" | "status_message">,
  artifactSuffix: string,
  params: KeyValue[],
  tags: KeyValue[],
): Promise<{ experimentStage: string | undefined; created: boolean }> {
  const values = (items: KeyValue[]) =>
    items.length === 0
      ? "SELECT CAST(NULL AS text) AS key, CAST(NULL AS text) AS value WHERE false"
      : `VALUES ${items.map(() => "(CAST(? AS text), CAST(? AS text))").join(", ")}`;
  const result = await db.raw(
    `WITH experiment AS (SELECT lifecycle_stage, artifact_location FROM experiments WHERE experiment_id = ? FOR SHARE),
     given_params (key, value) AS (${values(params)}),
     given_tags (key, value) AS (${values(tags)}),
     created AS (
       INSERT INTO logged_models (model_id, experiment_id, name, artifact_location, creation_timestamp_ms,
                                  last_updated_timestamp_ms, status, lifecycle_stage, model_type, source_run_id)
       SELECT ?, ?, ?, regexp_replace(artifact_location, '/+$', '') || ?, ?, ?, ?, 'active', ?, ?
         FROM experiment WHERE lifecycle_stage = 'active'
       RETURNING model_id
     ),
     with_params AS (INSERT INTO logged_model_params (model_id, key, value) SELECT c.model_id, g.key, g.value FROM created c CROSS JOIN given_params g),
     with_tags AS (INSERT INTO logged_model_tags (model_id, key, value) SELECT c.model_id, g.key, g.value FROM created c CROSS JOIN given_tags g)
     SELECT e.lifecycle_stage AS experiment_stage, EXISTS (SELECT 1 FROM created) AS created FROM experiment e`,
    [
      row.experiment_id,
      ...params.flatMap((p) => [p.key, p.value]),
      ...tags.flatMap((t) => [t.key, t.value]),
      row.model_id,
      row.experiment_id,
      row.name,
      artifactSuffix,
      row.creation_timestamp_ms,
      row.last_updated_timestamp_ms,
      row.status,
      row.model_type,
      row.source_run_id,
    ],
  );
  const out = (result.rows as Array<{ experiment_stage: string; created: boolean }>)[0];
  return { experimentStage: out?.experiment_stage, created: out?.created === true };
}

/** Updates a model's row; false when there is no such model. */
export async function updateLoggedModelRow(
  db: Knex | Knex.Transaction,
  id: string,
  changes: Partial<Pick<LoggedModelRow, "status" | "lifecycle_stage" | "last_updated_timestamp_ms">>,
): Promise<boolean> {
  const updated = await db("logged_models").where({ model_id: id }).update(changes);
  return updated > 0;
}

/** Sets tags (a repeated key keeps its last value) of a model; false when there is no such model. */
export async function upsertLoggedModelTags(db: Knex, id: string, tags: KeyValue[]): Promise<boolean> {
  const unique = [...new Map(tags.map((t) => [t.key, t.value]))];
  const pairs =
    unique.length === 0
      ? "SELECT CAST(NULL AS text) AS key, CAST(NULL AS text) AS value WHERE false"
      : `VALUES ${unique.map(() => "(CAST(? AS text), CAST(? AS text))").join(", ")}`;
  const result = await db.raw(
    `WITH model AS (SELECT model_id FROM logged_models WHERE model_id = ? FOR SHARE),
     given (key, value) AS (${pairs}),
     tagged AS (
       INSERT INTO logged_model_tags (model_id, key, value) SELECT m.model_id, g.key, g.value FROM model m CROSS JOIN given g
       ON CONFLICT (model_id, key) DO UPDATE SET value = excluded.value
     )
     SELECT model_id FROM model`,
    [id, ...unique.flat()],
  );
  return (result.rows as unknown[]).length > 0;
}

/** Deletes a model's tag: whether the model exists and whether the tag was there. */
export async function deleteLoggedModelTag(
  db: Knex,
  id: string,
  key: string,
): Promise<{ model: boolean; removed: boolean }> {
  const result = await db.raw(
    `WITH model AS (SELECT model_id FROM logged_models WHERE model_id = ? FOR SHARE),
     removed AS (DELETE FROM logged_model_tags WHERE model_id = ? AND key = ? AND EXISTS (SELECT 1 FROM model) RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM model) AS model, EXISTS (SELECT 1 FROM removed) AS removed`,
    [id, id, key],
  );
  const out = (result.rows as Array<{ model: boolean; removed: boolean }>)[0];
  return { model: out?.model === true, removed: out?.removed === true };
}

/**
 * Adds params to a model; false when there is no such model. A key the model has already (or one
 * repeated in `params`) violates the primary key (SQLSTATE 23505), as in MLflow's store.
 */
export async function insertLoggedModelParams(db: Knex, id: string, params: KeyValue[]): Promise<boolean> {
  if (params.length === 0) return (await findLoggedModelRow(db, id)) !== undefined;
  const result = await db.raw(
    `WITH model AS (SELECT model_id FROM logged_models WHERE model_id = ? FOR SHARE),
     added AS (
       INSERT INTO logged_model_params (model_id, key, value)
       SELECT m.model_id, g.key, g.value FROM model m CROSS JOIN (VALUES ${params.map(() => "(CAST(? AS text), CAST(? AS text))").join(", ")}) AS g (key, value)
     )
     SELECT model_id FROM model`,
    [id, ...params.flatMap((p) => [p.key, p.value])],
  );
  return (result.rows as unknown[]).length > 0;
}

/** What registry versions need of a logged model: its run and its artifact location. */
export async function loggedModelSource(
  db: Knex | Knex.Transaction,
  id: string,
): Promise<Pick<LoggedModelRow, "source_run_id" | "artifact_location"> | undefined> {
  return db("logged_models").select("source_run_id", "artifact_location").where({ model_id: id }).first();
}

/**
 * Read-modify-write of one tag of a model, with the model row locked (FOR UPDATE) so concurrent
 * updates of the tag run one after the other. `update` gets the current value (undefined: no tag)
 * and returns the new one, or undefined to leave it. Nothing happens when there is no such model.
 */
export async function updateLoggedModelTag(
  db: Knex,
  id: string,
  key: string,
  update: (current: string | undefined) => string | undefined,
): Promise<void> {
  await db.transaction(async (trx) => {
    const model = await trx("logged_models").select("model_id").where({ model_id: id }).forUpdate().first();
    if (!model) return;
    const row = (await trx("logged_model_tags").select("value").where({ model_id: id, key }).first()) as
      | { value: string }
      | undefined;
    const value = update(row?.value);
    if (value === undefined) return;
    await trx("logged_model_tags").insert({ model_id: id, key, value }).onConflict(["model_id", "key"]).merge();
  });
}
