import type { Knex } from "knex";
import type { KeyValue, MetricRecord, RunRecord } from "../core/model.js";
import { groupBy, toMetric, toRunInfo, type LatestMetricRow, type RunRow } from "./rows.js";

/** SQL for runs and their params, tags and metrics. */

export async function insertRun(db: Knex, row: RunRow, tags: KeyValue[]): Promise<void> {
  await db("runs").insert(row);
  await upsertTags(db, row.run_uuid, tags);
}

export async function findRunRow(db: Knex, runId: string, forUpdate = false): Promise<RunRow | undefined> {
  const query = db<RunRow>("runs").where({ run_uuid: runId }).first();
  return forUpdate ? query.forShare() : query;
}

export async function updateRunRow(db: Knex, runId: string, changes: Record<string, unknown>): Promise<void> {
  await db("runs").where({ run_uuid: runId }).update(changes);
}

/** Loads full runs (info, params, tags, both kinds of latest metrics) in the order of `ids`. */
export async function loadRuns(db: Knex, ids: string[]): Promise<RunRecord[]> {
  if (ids.length === 0) return [];
  const [rows, paramRows, tagRows, metricRows] = await Promise.all([
    db<RunRow>("runs").whereIn("run_uuid", ids),
    db("params").whereIn("run_uuid", ids).orderBy(["run_uuid", "key"]),
    db("tags").whereIn("run_uuid", ids).orderBy(["run_uuid", "key"]),
    db<LatestMetricRow>("latest_metrics").whereIn("run_uuid", ids).orderBy(["run_uuid", "key"]),
  ]);
  const params = groupBy(paramRows as Array<KeyValue & { run_uuid: string }>, (r) => r.run_uuid);
  const tags = groupBy(tagRows as Array<KeyValue & { run_uuid: string }>, (r) => r.run_uuid);
  const latest = new Map<string, MetricRecord[]>();
  const lastLogged = new Map<string, MetricRecord[]>();
  for (const m of metricRows) {
    const push = (map: Map<string, MetricRecord[]>, metric: MetricRecord) => map.set(m.run_uuid, [...(map.get(m.run_uuid) ?? []), metric]);
    push(latest, toMetric(m.key, m.value, m.timestamp, m.step));
    push(lastLogged, toMetric(m.key, m.last_value, m.last_timestamp, m.last_step));
  }
  const byId = new Map(rows.map((r) => [r.run_uuid, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        info: toRunInfo(row),
        params: params.get(id) ?? [],
        tags: tags.get(id) ?? [],
        latestMetrics: latest.get(id) ?? [],
        lastLoggedMetrics: lastLogged.get(id) ?? [],
      },
    ];
  });
}

export async function upsertTags(db: Knex, runId: string, tags: KeyValue[]): Promise<void> {
  if (tags.length === 0) return;
  await db("tags")
    .insert(tags.map((t) => ({ run_uuid: runId, key: t.key, value: t.value })))
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

/**
 * Appends metric values (one multi-row INSERT) and folds them into latest_metrics in the same
 * transaction: one upsert row per key, pre-aggregated so no row is touched twice.
 */
export async function insertMetrics(db: Knex, runId: string, metrics: MetricRecord[]): Promise<void> {
  if (metrics.length === 0) return;
  const inserted = await db("metrics")
    .insert(metrics.map((m) => ({ run_uuid: runId, key: m.key, value: m.value, timestamp: m.timestamp, step: m.step })))
    .returning("id");
  const perKey = new Map<string, { latest: MetricRecord; last: MetricRecord; lastId: number }>();
  metrics.forEach((m, i) => {
    const id = Number((inserted[i] as { id: number }).id);
    const seen = perKey.get(m.key);
    if (!seen) {
      perKey.set(m.key, { latest: m, last: m, lastId: id });
      return;
    }
    if (isLater(m, seen.latest)) seen.latest = m;
    if (id > seen.lastId) {
      seen.last = m;
      seen.lastId = id;
    }
  });
  const rows = [...perKey.entries()].map(([key, { latest, last, lastId }]) => ({
    run_uuid: runId,
    key,
    value: latest.value,
    timestamp: latest.timestamp,
    step: latest.step,
    last_value: last.value,
    last_timestamp: last.timestamp,
    last_step: last.step,
    last_id: lastId,
  }));
  // Revision C's rule (latest timestamp, ties by the maximum value; PostgreSQL orders NaN above
  // every number) and A/B's rule (highest insertion id) in one statement.
  await db.raw(
    `INSERT INTO latest_metrics AS t (run_uuid, key, value, timestamp, step, last_value, last_timestamp, last_step, last_id)
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(run_uuid char(32), key text, value double precision, timestamp bigint,
       step bigint, last_value double precision, last_timestamp bigint, last_step bigint, last_id bigint)
     ON CONFLICT (run_uuid, key) DO UPDATE SET
       value = CASE WHEN (excluded.timestamp, excluded.value) > (t.timestamp, t.value) THEN excluded.value ELSE t.value END,
       step = CASE WHEN (excluded.timestamp, excluded.value) > (t.timestamp, t.value) THEN excluded.step ELSE t.step END,
       timestamp = GREATEST(t.timestamp, excluded.timestamp),
       last_value = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_value ELSE t.last_value END,
       last_timestamp = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_timestamp ELSE t.last_timestamp END,
       last_step = CASE WHEN excluded.last_id > t.last_id THEN excluded.last_step ELSE t.last_step END,
       last_id = GREATEST(t.last_id, excluded.last_id)`,
    [JSON.stringify(rows.map(jsonSafeMetricRow))],
  );
}

/** JSON has no NaN/Infinity: send them as strings, which PostgreSQL's float8 input accepts. */
function jsonSafeMetricRow<T extends { value: number; last_value: number }>(row: T) {
  const safe = (v: number) => (Number.isFinite(v) ? v : String(v));
  return { ...row, value: safe(row.value), last_value: safe(row.last_value) };
}

/** Revision C's order: later timestamp wins; at equal timestamps the larger value (NaN largest). */
function isLater(a: MetricRecord, b: MetricRecord): boolean {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp;
  if (Number.isNaN(a.value)) return !Number.isNaN(b.value);
  if (Number.isNaN(b.value)) return false;
  return a.value > b.value;
}

export async function metricHistory(db: Knex, runId: string, key: string): Promise<MetricRecord[]> {
  const rows = await db("metrics").select("key", "value", "timestamp", "step").where({ run_uuid: runId, key }).orderBy("id");
  return rows.map((r: MetricRecord) => toMetric(r.key, r.value, r.timestamp, r.step));
}

/** Runs of an experiment for experiments/get, newest first, bounded. */
export async function runIdsOfExperiment(db: Knex, experimentId: number, activeOnly: boolean, limit: number): Promise<string[]> {
  const query = db("runs").select("run_uuid").where({ experiment_id: experimentId }).orderBy([
    { column: "start_time", order: "desc" },
    { column: "run_uuid", order: "asc" },
  ]);
  if (activeOnly) query.where({ lifecycle_stage: "active" });
  const rows = await query.limit(limit);
  return rows.map((r: { run_uuid: string }) => r.run_uuid);
}
