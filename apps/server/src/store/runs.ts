import type { Knex } from "knex";
import type { KeyValue, MetricRecord, RunRecord } from "../domain/records.js";
import { ROLLUP_UPSERT_CTES } from "./metric-rollups.js";
import { runStatement, type Binding } from "./prepared.js";
import { toMetric, toRunInfo, type RunRow } from "./rows.js";

/** SQL for runs and their params, tags and metrics. */

export async function findRunRow(db: Knex, runId: string, forUpdate = false): Promise<RunRow | undefined> {
  const query = db<RunRow>("runs").where({ run_uuid: runId }).first();
  return forUpdate ? query.forShare() : query;
}

/**
 * The lifecycle stage of each run of `ids` that exists, by run id: one statement for any number of
 * runs (the ids are one array parameter), so that concurrent checks can share it (core/run-lifecycle-reads.ts).
 */
export async function runLifecycleStages(db: Knex, ids: readonly string[]): Promise<Map<string, string>> {
  const result = await runStatement(
    db,
    "SELECT run_uuid, lifecycle_stage FROM runs WHERE run_uuid = ANY(CAST(? AS bpchar[]))",
    [ids],
    "tracker_run_lifecycle_stages",
  );
  const rows = result.rows as Array<{ run_uuid: string; lifecycle_stage: string }>;
  return new Map(rows.map((r) => [r.run_uuid, r.lifecycle_stage]));
}

export async function updateRunRow(db: Knex, runId: string, changes: Record<string, unknown>): Promise<void> {
  await db("runs").where({ run_uuid: runId }).update(changes);
}

/** Which keys of each kind to load; the tags whose key starts with `systemPrefix` always come. */
export interface RunColumns {
  metricKeys: string[];
  paramKeys: string[];
  tagKeys: string[];
  systemPrefix: string;
}

/** A run row with its params, tags and latest metrics aggregated as JSON arrays (see loadRuns). */
interface RunWithDataRow extends RunRow {
  params: Array<[string, string]>;
  tags: Array<[string, string]>;
  /** [key, value, timestamp, step, last_value, last_timestamp, last_step]; JSON writes NaN and infinities as strings. */
  metrics: Array<[string, number | string, number, number, number | string, number, number]>;
}

/** `AND <column> IN (...)` for a key list (`AND false` when it is empty); nothing without a list. */
function keyFilter(column: string, keys: string[] | undefined): { sql: string; bindings: string[] } {
  if (keys === undefined) return { sql: "", bindings: [] };
  if (keys.length === 0) return { sql: " AND false", bindings: [] };
  return { sql: ` AND ${column} IN (${keys.map(() => "?").join(", ")})`, bindings: keys };
}

/**
 * Loads runs (info, params, tags, both kinds of latest metrics) in the order of `ids`, in one
 * statement (one round trip, one connection): each run row carries its params, tags and latest
 * metrics as JSON arrays ordered by key, aggregated by correlated subqueries on the primary keys.
 * With `columns`, only the keys named there (and the system tags) are loaded: the database sends
 * nothing else.
 */
export async function loadRuns(db: Knex, ids: string[], columns?: RunColumns): Promise<RunRecord[]> {
  if (ids.length === 0) return [];
  const params = keyFilter("p.key", columns?.paramKeys);
  const metrics = keyFilter("m.key", columns?.metricKeys);
  const tagKeys = keyFilter("t.key", columns?.tagKeys);
  const systemTags = columns ? `${columns.systemPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}.%` : undefined;
  const tags = columns
    ? {
        sql: ` AND (${tagKeys.sql ? tagKeys.sql.slice(" AND ".length) : "true"} OR t.key LIKE ?)`,
        bindings: [...tagKeys.bindings, systemTags as string],
      }
    : tagKeys;
  const result = await runStatement(
    db,
    `SELECT r.*,
       (SELECT COALESCE(json_agg(json_build_array(p.key, p.value) ORDER BY p.key), '[]') FROM params p WHERE p.run_uuid = r.run_uuid${params.sql}) AS params,
       (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM tags t WHERE t.run_uuid = r.run_uuid${tags.sql}) AS tags,
       (SELECT COALESCE(json_agg(json_build_array(m.key, m.value, m.timestamp, m.step, m.last_value, m.last_timestamp, m.last_step) ORDER BY m.key), '[]')
          FROM latest_metrics m WHERE m.run_uuid = r.run_uuid${metrics.sql}) AS metrics
     FROM runs r WHERE r.run_uuid = ANY(CAST(? AS bpchar[]))`,
    [...params.bindings, ...tags.bindings, ...metrics.bindings, ids],
    // One statement for any number of runs (the ids are one array parameter).
    columns ? undefined : "tracker_load_runs",
  );
  const byId = new Map((result.rows as RunWithDataRow[]).map((r) => [r.run_uuid, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [runRecordOf(row)] : [];
  });
}

/**
 * A run record from its row. Each kind of latest metric is made into records only when read: an
 * answer shows one of them (revision C the latest by timestamp, A and B the last logged), and a
 * page of runs/search has up to 1,000 runs.
 */
function runRecordOf(row: RunWithDataRow): RunRecord {
  const metrics = row.metrics;
  let latest: MetricRecord[] | undefined;
  let lastLogged: MetricRecord[] | undefined;
  return {
    info: toRunInfo(row),
    params: row.params.map(([key, value]) => ({ key, value })),
    tags: row.tags.map(([key, value]) => ({ key, value })),
    get latestMetrics() {
      latest ??= metrics.map((m) => toMetric(m[0], m[1] as number, m[2], m[3]));
      return latest;
    },
    get lastLoggedMetrics() {
      lastLogged ??= metrics.map((m) => toMetric(m[0], m[4] as number, m[5], m[6]));
      return lastLogged;
    },
  };
}

export async function upsertTags(db: Knex, runId: string, tags: KeyValue[]): Promise<void> {
  if (tags.length === 0) return;
  // A key given twice keeps its last value (one statement cannot upsert a row twice).
  const unique = [...new Map(tags.map((t) => [t.key, t])).values()];
  await db("tags")
    .insert(unique.map((t) => ({ run_uuid: runId, key: t.key, value: t.value })))
    .onConflict(["run_uuid", "key"])
    .merge();
}

export async function deleteTagRow(db: Knex, runId: string, key: string): Promise<number> {
  const deleted = await db("tags").where({ run_uuid: runId, key }).delete().returning("key");
  return deleted.length;
}

export async function findTag(db: Knex, runId: string, key: string): Promise<string | undefined> {
  const row = await db("tags").where({ run_uuid: runId, key }).first();
  return row?.value;
}

/**
 * Inserts params that are not there yet; returns the stored values of the given keys (after the
 * insert), so the caller can tell an identical re-log from an attempt to change a value.
 */
export async function insertParams(db: Knex, runId: string, params: KeyValue[]): Promise<Map<string, string>> {
  if (params.length === 0) return new Map();
  await db("params")
    .insert(params.map((p) => ({ run_uuid: runId, key: p.key, value: p.value })))
    .onConflict(["run_uuid", "key"])
    .ignore();
  const stored = await db("params")
    .select("key", "value")
    .where({ run_uuid: runId })
    .whereIn(
      "key",
      params.map((p) => p.key),
    );
  return new Map(stored.map((r: KeyValue) => [r.key, r.value]));
}

export async function findParam(db: Knex, runId: string, key: string): Promise<string | undefined> {
  const row = await db("params").where({ run_uuid: runId, key }).first();
  return row?.value;
}

/** Identity of a stored metric point: what the unique index metrics_point_key compares (NaN equals NaN, 0 equals -0). */
function pointKey(m: MetricRecord): string {
  return `${m.key}\u0000${m.timestamp}\u0000${m.step}\u0000${String(m.value)}\u0000${m.modelId ?? ""}`;
}

/** Whether a point carries MLflow 3's linkage (a logged model or a dataset). */
const isLinked = (m: MetricRecord): boolean =>
  m.modelId !== undefined || m.datasetName !== undefined || m.datasetDigest !== undefined;

/**
 * A double as a statement parameter. The pg driver sends numbers as String(n), which turns -0
 * into "0"; PostgreSQL keeps -0 when it is sent as "-0". NaN and the infinities already go as
 * the "NaN"/"Infinity"/"-Infinity" that PostgreSQL reads.
 */
const doubleParameter = (value: number): number | string => (Object.is(value, -0) ? "-0" : value);

/** Drops repeats of a point within one request, keeping the first. */
export function distinctPoints(metrics: MetricRecord[]): MetricRecord[] {
  const seen = new Set<string>();
  return metrics.filter((m) => {
    const id = pointKey(m);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Appends metric values to an active run and folds them into latest_metrics, in one statement
 * (one round trip, atomic by itself, so no explicit transaction is needed):
 * - `run` reads the run's lifecycle stage and holds a share lock on its row until the statement's
 *   transaction ends, so a concurrent delete waits (or, if it came first, nothing is written);
 * - `inserted` is a multi-row INSERT (unnest() of the points' columns, the run id bound once) into
 *   metrics, only if the run is active, skipping points already stored (ON CONFLICT on the unique
 *   index metrics_point_key, which also settles concurrent identical requests);
 * - its RETURNING rows (the values really added) are reduced to one row per key and upserted into
 *   latest_metrics, so no latest_metrics row is touched twice. Revision C's rule: the latest
 *   timestamp wins, ties by the larger value (PostgreSQL orders NaN above every number), exact
 *   ties keep the earlier value; revisions A and B: the highest insertion id (the last value logged);
 * - the same rows are folded into metric_rollups (store/metric-rollups.ts), which the downsampled
 *   histories read, so duplicates skipped by ON CONFLICT are never counted.
 * Returns the run's lifecycle stage, or undefined when there is no such run (nothing is written
 * unless it is "active").
 */
export async function insertMetrics(db: Knex, runId: string, metrics: MetricRecord[]): Promise<string | undefined> {
  const points = distinctPoints(metrics);
  if (points.length === 0) {
    const row = await db("runs").select("lifecycle_stage").where({ run_uuid: runId }).first();
    return row?.lifecycle_stage;
  }
  // Points with a model or dataset (MLflow 3) take a wider statement; without them the statement
  // (and its prepared plan) is the one it always was.
  const linked = points.some(isLinked);
  const { sql, name } = metricInsertStatement(points.length === 1, linked);
  const columns = points.length === 1 ? pointColumns(points[0], linked) : pointArrays(points, linked);
  // In statement order: run, [given], inserted, [modeled], folded, rollups.
  const bindings = linked ? [runId, ...columns, runId, runId, runId, runId] : [runId, runId, ...columns, runId, runId];
  const result = await runStatement(db, sql, bindings, name);
  return (result.rows as Array<{ lifecycle_stage: string }>)[0]?.lifecycle_stage;
}

/** One point's columns as statement parameters (key, value, timestamp, step[, model, dataset name, digest]). */
function pointColumns(m: MetricRecord, linked: boolean): Binding[] {
  const columns: Binding[] = [m.key, doubleParameter(m.value), m.timestamp, m.step];
  if (linked) columns.push(m.modelId ?? null, m.datasetName ?? null, m.datasetDigest ?? null);
  return columns;
}

/**
 * Points as one array per column, the parameters of the batch statement's unnest(): a fixed
 * number of parameters whatever the batch's size, so one prepared statement serves every size.
 * The driver writes an array's numbers with String(n), which turns -0 into "0": values go as
 * doubleParameter gives them.
 */
function pointArrays(points: MetricRecord[], linked: boolean): Binding[] {
  const n = points.length;
  const keys = new Array<string>(n);
  const values = new Array<number | string>(n);
  const timestamps = new Array<number>(n);
  const steps = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const m = points[i];
    keys[i] = m.key;
    values[i] = doubleParameter(m.value);
    timestamps[i] = m.timestamp;
    steps[i] = m.step;
  }
  const arrays: Binding[] = [keys, values, timestamps, steps];
  if (linked) {
    arrays.push(
      points.map((m) => m.modelId ?? null),
      points.map((m) => m.datasetName ?? null),
      points.map((m) => m.datasetDigest ?? null),
    );
  }
  return arrays;
}

/**
 * insertMetrics' statements, built once and prepared by name: one point (a VALUES row) or a batch
 * of any size (unnest() of one array per column), with or without MLflow 3's linkage columns.
 * The memo holds SQL text only (no data): safe with several server processes over one database.
 */
const metricInsertStatements = new Map<string, { sql: string; name: string }>();

function metricInsertStatement(single: boolean, linked: boolean): { sql: string; name: string } {
  // The single-point names are the ones these statements always had.
  const name = `tracker_insert_${linked ? "linked_" : ""}${single ? "metric" : "metric_batch"}`;
  let statement = metricInsertStatements.get(name);
  if (statement === undefined) {
    statement = { sql: metricInsertSql(single, linked), name };
    metricInsertStatements.set(name, statement);
  }
  return statement;
}

function metricInsertSql(single: boolean, linked: boolean): string {
  const names = linked
    ? "v (key, value, timestamp, step, model_id, dataset_name, dataset_digest)"
    : "v (key, value, timestamp, step)";
  const types = ["text", "double precision", "bigint", "bigint", ...(linked ? ["text", "text", "text"] : [])];
  // One point: a VALUES row whose casts give its columns their types. A batch: unnest() of one
  // array per column, which yields the points in the order given (the insertion order, which the
  // latest and last values below rely on through the ids).
  const values = single
    ? `(VALUES (${types.map((t) => `CAST(? AS ${t})`).join(", ")})) AS ${names}`
    : `unnest(${types.map((t) => `CAST(? AS ${t}[])`).join(", ")}) AS ${names}`;
  return `WITH run AS (SELECT lifecycle_stage${linked ? ", experiment_id" : ""} FROM runs WHERE run_uuid = ? FOR SHARE),
     ${linked ? `given AS (SELECT * FROM ${values}),` : ""}
     inserted AS (
       INSERT INTO metrics (run_uuid, key, value, timestamp, step${linked ? ", model_id, dataset_name, dataset_digest" : ""})
       SELECT ?, v.key, v.value, v.timestamp, v.step${linked ? ", v.model_id, v.dataset_name, v.dataset_digest FROM given AS v" : ` FROM ${values}`}
       WHERE EXISTS (SELECT 1 FROM run WHERE lifecycle_stage = 'active')
       ON CONFLICT (run_uuid, key, step, timestamp, value) DO NOTHING
       RETURNING id, key, value, timestamp, step
     ),${linked ? MODEL_METRICS_CTE : ""}
     latest AS (SELECT DISTINCT ON (key) key, value, timestamp, step FROM inserted ORDER BY key, timestamp DESC, value DESC, id),
     last AS (SELECT DISTINCT ON (key) key, value, timestamp, step, id FROM inserted ORDER BY key, id DESC),
     folded AS (
       INSERT INTO latest_metrics AS t (run_uuid, key, value, timestamp, step, last_value, last_timestamp, last_step, last_id)
       SELECT ?, latest.key, latest.value, latest.timestamp, latest.step, last.value, last.timestamp, last.step, last.id
       FROM latest JOIN last ON last.key = latest.key
       ON CONFLICT (run_uuid, key) DO UPDATE SET
         value = CASE WHEN (excluded.timestamp, excluded.value) > (t.timestamp, t.value) THEN excluded.value ELSE t.value END,
         step = CASE WHEN (excluded.timestamp, excluded.value) > (t.timestamp, t.value) THEN excluded.step ELSE t.step END,
         timestamp = GREATEST(t.timestamp, excluded.timestamp),
         last_value = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_value ELSE t.last_value END,
         last_timestamp = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_timestamp ELSE t.last_timestamp END,
         last_step = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_step ELSE t.last_step END,
         last_id = GREATEST(t.last_id, excluded.last_id)
     ),${ROLLUP_UPSERT_CTES}
     SELECT lifecycle_stage FROM run`;
}

/**
 * The points given with a model_id, also written to the model's metrics (logged_model_metrics),
 * with the run's id and experiment, in the statement that writes them to the run. A point already
 * there for the same (model, key, timestamp, step, run) is skipped; an unknown model fails the
 * whole statement (foreign key), so nothing is written.
 */
const MODEL_METRICS_CTE = `
     modeled AS (
       INSERT INTO logged_model_metrics (model_id, key, value, timestamp, step, run_id, experiment_id, dataset_name, dataset_digest)
       SELECT v.model_id, v.key, v.value, v.timestamp, v.step, ?, (SELECT experiment_id FROM run), v.dataset_name, v.dataset_digest
         FROM given AS v WHERE v.model_id IS NOT NULL AND EXISTS (SELECT 1 FROM run WHERE lifecycle_stage = 'active')
       ON CONFLICT (model_id, key, timestamp, step, run_id) DO NOTHING
     ),`;

interface HistoryRow {
  id: number;
  key: string;
  value: number;
  timestamp: number;
  step: number;
  model_id: string | null;
  dataset_name: string | null;
  dataset_digest: string | null;
}

/** A stored point with its linkage (model, dataset) when it has one. */
function linkedMetric(r: HistoryRow): MetricRecord {
  const m = toMetric(r.key, r.value, r.timestamp, r.step);
  if (r.model_id !== null) m.modelId = r.model_id;
  if (r.dataset_name !== null) m.datasetName = r.dataset_name;
  if (r.dataset_digest !== null) m.datasetDigest = r.dataset_digest;
  return m;
}

/** Rows per query when reading a metric's history (see metricHistoryPages). */
export const METRIC_HISTORY_PAGE_ROWS = 5000;

/**
 * Every value of one metric of a run in insertion order, read in keyset pages (`id > last id`,
 * on the index (run_uuid, key, id)), so a long history is never held in memory at once and no
 * connection is held between pages. Values logged while the pages are read may be included.
 */
export async function* metricHistoryPages(
  db: Knex,
  runId: string,
  key: string,
  pageRows: number = METRIC_HISTORY_PAGE_ROWS,
): AsyncGenerator<MetricRecord[], void, undefined> {
  let afterId = 0;
  for (;;) {
    const rows: Array<HistoryRow> = await db("metrics")
      .select("id", "key", "value", "timestamp", "step", "model_id", "dataset_name", "dataset_digest")
      .where({ run_uuid: runId, key })
      .andWhere("id", ">", afterId)
      .orderBy("id")
      .limit(pageRows);
    if (rows.length > 0) yield rows.map(linkedMetric);
    if (rows.length < pageRows) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}

/** A run row with its tags aggregated as a JSON array (see runInfosOfExperiment). */
interface RunWithTagsRow extends RunRow {
  tags: Array<[string, string]>;
}

/**
 * Runs of an experiment for experiments/get, newest first, bounded: info and tags only (the answer
 * lists run infos, so params and metrics are not read), in one statement.
 */
export async function runInfosOfExperiment(
  db: Knex,
  experimentId: number,
  activeOnly: boolean,
  limit: number,
): Promise<Array<Pick<RunRecord, "info" | "tags">>> {
  const result = await runStatement(
    db,
    `SELECT r.*,
       (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM tags t WHERE t.run_uuid = r.run_uuid) AS tags
     FROM runs r WHERE r.experiment_id = ?${activeOnly ? " AND r.lifecycle_stage = 'active'" : ""}
     ORDER BY r.start_time DESC, r.run_uuid ASC LIMIT ?`,
    [experimentId, limit],
    activeOnly ? "tracker_experiment_runs_active" : "tracker_experiment_runs_all",
  );
  return (result.rows as RunWithTagsRow[]).map((row) => ({
    info: toRunInfo(row),
    tags: row.tags.map(([key, value]) => ({ key, value })),
  }));
}

/** Distinct metric, param and tag keys of the runs of some experiments, at most `limit` of each. */
export async function runKeys(
  db: Knex,
  experimentIds: number[],
  limit: number,
): Promise<{ metricKeys: string[]; paramKeys: string[]; tagKeys: string[] }> {
  const keysOf = (table: string) =>
    db(table)
      .distinct("key")
      .whereIn("run_uuid", db("runs").select("run_uuid").whereIn("experiment_id", experimentIds))
      .orderBy("key")
      .limit(limit)
      .pluck("key") as Promise<string[]>;
  const [metricKeys, paramKeys, tagKeys] = await Promise.all([
    keysOf("latest_metrics"),
    keysOf("params"),
    keysOf("tags"),
  ]);
  return { metricKeys, paramKeys, tagKeys };
}
