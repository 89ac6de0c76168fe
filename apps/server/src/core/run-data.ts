import { runValueLimitsOf, tagNamespaceOf, type Services } from "./services.js";
import type { Knex } from "knex";
import { invalidParameter, notFound, TrackerError } from "./errors.js";
import { checkKey, checkValue, LIMITS, type RunValueLimits } from "./limits.js";
import type { KeyValue, MetricRecord } from "./model.js";
import { STORED_TAGS, swapTagNamespace, swapTagsNamespace } from "../domain/system-tags.js";
import { checkRunActive, checkRunTag, getRun, requireActiveRun } from "./runs.js";
import * as store from "../store/runs.js";
import * as writes from "../store/run-writes.js";

/** Writes and reads of a run's metrics, params and tags (revision-agnostic). */

function checkMetric(metric: MetricRecord, keyChars: number = LIMITS.keyChars): void {
  checkKey("Metric", metric.key, { maxChars: keyChars });
}

/** Params are written once; logging the same value again is fine, a different one is an error. */
function checkParamsUnchanged(runId: string, params: KeyValue[], stored: Map<string, string>): void {
  for (const p of params) {
    const existing = stored.get(p.key);
    if (existing !== undefined && existing !== p.value) {
      throw invalidParameter(
        `Changing param values is not allowed. Param with key='${p.key}' was already logged with value='${existing}' for run ID='${runId}'. Attempted logging new value '${p.value}'.`,
      );
    }
  }
}

export async function logMetric(services: Services, runId: string, metric: MetricRecord): Promise<void> {
  checkMetric(metric);
  // One statement: checks the run, skips a point already stored, updates latest_metrics.
  checkRunActive(runId, await insertLinkedMetrics(services.knex, runId, [metric]));
}

/**
 * store.insertMetrics, with a point's unknown model_id (the foreign key of logged_model_metrics)
 * reported as MLflow 3 does: 400 BAD_REQUEST, nothing written.
 */
async function insertLinkedMetrics(db: Knex, runId: string, metrics: MetricRecord[]): Promise<string | undefined> {
  try {
    return await store.insertMetrics(db, runId, metrics);
  } catch (err) {
    const failure = err as { code?: string; detail?: string } | null;
    if (failure?.code === "23503") {
      const unknown =
        /Key \(model_id\)=\((.*)\) is not present/.exec(failure.detail ?? "")?.[1] ??
        metrics.find((m) => m.modelId !== undefined)?.modelId;
      throw new TrackerError("BAD_REQUEST", `Logged model with ID '${unknown}' not found.`);
    }
    throw err;
  }
}

export async function logParam(services: Services, runId: string, param: KeyValue): Promise<void> {
  checkKey("Param", param.key, { maxChars: LIMITS.keyBytes, maxBytes: LIMITS.keyBytes });
  checkValue("Param value", param.value, runValueLimitsOf(services).paramValue);
  // One statement: checks the run, inserts the param unless the key is there, returns what is stored.
  const { stage, stored } = await writes.logRunParam(services.knex, runId, param);
  checkRunActive(runId, stage);
  checkParamsUnchanged(runId, [param], new Map(stored === undefined ? [] : [[param.key, stored]]));
}

export interface TagLimits {
  keyChars?: number;
  keyBytes?: number;
}

/**
 * Sets a tag (its key in the request's namespace); setting the run-name system tag also renames
 * the run, as MLflow does. One statement.
 */
export async function setTag(services: Services, runId: string, tag: KeyValue, limits: TagLimits = {}): Promise<void> {
  checkRunTag(tag, runValueLimitsOf(services).tagValue, limits);
  const stored = { key: swapTagNamespace(tagNamespaceOf(services), tag.key), value: tag.value };
  const renames = stored.key === STORED_TAGS.runName;
  checkRunActive(runId, await writes.setRunTag(services.knex, runId, stored, renames ? tag.value : undefined));
}

export async function deleteTag(services: Services, runId: string, key: string): Promise<void> {
  checkValue("key", key, { maxBytes: LIMITS.keyBytes });
  const storedKey = swapTagNamespace(tagNamespaceOf(services), key);
  const { stage, removed } = await writes.deleteRunTag(services.knex, runId, storedKey);
  checkRunActive(runId, stage);
  if (!removed) throw notFound(`No tag with name: ${key} in run with id ${runId}`);
}

export interface Batch {
  metrics: MetricRecord[];
  params: KeyValue[];
  tags: KeyValue[];
}

/** Checks every limit of runs/log-batch before anything is written. */
function checkBatch(batch: Batch, limits: RunValueLimits): void {
  const { metrics, params, tags } = batch;
  if (metrics.length > LIMITS.batchMetrics) {
    throw invalidParameter(
      `A batch logging request can contain at most ${LIMITS.batchMetrics} metrics. Got ${metrics.length} metrics.`,
    );
  }
  if (params.length > LIMITS.batchParams) {
    throw invalidParameter(
      `A batch logging request can contain at most ${LIMITS.batchParams} params. Got ${params.length} params.`,
    );
  }
  if (tags.length > LIMITS.batchTags) {
    throw invalidParameter(
      `A batch logging request can contain at most ${LIMITS.batchTags} tags. Got ${tags.length} tags.`,
    );
  }
  const total = metrics.length + params.length + tags.length;
  if (total > LIMITS.batchTotal) {
    throw invalidParameter(
      `A batch logging request can contain at most ${LIMITS.batchTotal} metrics, params and tags in total. Got ${total}.`,
    );
  }
  for (const m of metrics) checkMetric(m, LIMITS.batchKeyChars);
  for (const p of params) {
    checkKey("Param", p.key, { maxChars: LIMITS.batchKeyChars });
    checkValue("Param value", p.value, limits.batchParamValue);
  }
  for (const [i, t] of tags.entries()) {
    checkRunTag(t, limits.batchTagValue, { keyChars: LIMITS.batchKeyChars }, `tags[${i}].value`);
  }
  const seen = new Map<string, string>();
  for (const p of params) {
    const before = seen.get(p.key);
    if (before !== undefined && before !== p.value) {
      throw invalidParameter(
        `Duplicate param key '${p.key}' with different values in one batch ('${before}' and '${p.value}')`,
      );
    }
    seen.set(p.key, p.value);
  }
}

/**
 * runs/log-batch: limits first, then everything in one transaction (all or nothing). Tags with a
 * repeated key keep the last value; params may repeat an identical value; metric points already
 * stored (or repeated in the batch) are skipped. A batch of metrics only is one statement.
 */
export async function logBatch(services: Services, runId: string, batch: Batch): Promise<void> {
  checkBatch(batch, runValueLimitsOf(services));
  const params = [...new Map(batch.params.map((p) => [p.key, p])).values()];
  const tags = [...new Map(swapTagsNamespace(tagNamespaceOf(services), batch.tags).map((t) => [t.key, t])).values()];
  const names = STORED_TAGS;
  if (params.length === 0 && tags.length === 0) {
    checkRunActive(runId, await insertLinkedMetrics(services.knex, runId, batch.metrics));
    return;
  }
  if (tags.length === 0 && batch.metrics.length === 0) {
    // Params only: one statement in a transaction (see store.logRunParams).
    await writes.logRunParams(services.knex, runId, params, (stage, stored) => {
      checkRunActive(runId, stage);
      checkParamsUnchanged(runId, params, stored);
    });
    return;
  }
  await services.knex.transaction(async (trx) => {
    await requireActiveRun(trx, runId);
    checkParamsUnchanged(runId, params, await store.insertParams(trx, runId, params));
    await store.upsertTags(trx, runId, tags);
    const runName = tags.find((t) => t.key === names.runName);
    if (runName) await store.updateRunRow(trx, runId, { run_name: runName.value });
    if (batch.metrics.length > 0) await insertLinkedMetrics(trx, runId, batch.metrics);
  });
}

/** Fields MLflow requires in a logged model descriptor. */
const MODEL_FIELDS = ["artifact_path", "flavors", "utc_time_created", "run_id"];

/** runs/log-model: appends the model descriptor to the run's log-model history tag. */
export async function logModel(services: Services, runId: string, modelJson: string): Promise<void> {
  let model: unknown;
  try {
    model = JSON.parse(modelJson);
  } catch {
    throw invalidParameter("model_json is not valid JSON");
  }
  if (typeof model !== "object" || model === null || Array.isArray(model))
    throw invalidParameter("model_json must be a JSON object");
  const missingFields = MODEL_FIELDS.filter((field) => !(field in model));
  if (missingFields.length > 0)
    throw invalidParameter(`Model json is missing mandatory fields: ${missingFields.join(", ")}`);
  const key = STORED_TAGS.logModelHistory;
  await services.knex.transaction(async (trx) => {
    await requireActiveRun(trx, runId);
    // Serialize concurrent appends to the same run's history.
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [`log-model:${runId}`]);
    const current = await store.findTag(trx, runId, key);
    let history: unknown[] = [];
    if (current) {
      try {
        const parsed: unknown = JSON.parse(current);
        if (Array.isArray(parsed)) history = parsed;
      } catch {
        history = [];
      }
    }
    history.push(model);
    await store.upsertTags(trx, runId, [{ key, value: JSON.stringify(history) }]);
  });
}

/**
 * metrics/get-history: checks that the run exists (deleted runs included), then returns its values
 * of `key` as pages in insertion order, read lazily (see store.metricHistoryPages), so the caller
 * can stream them.
 */
export async function getMetricHistory(
  services: Services,
  runId: string,
  key: string,
): Promise<AsyncIterable<MetricRecord[]>> {
  if (!(await store.findRunRow(services.knex, runId))) throw notFound(`Run with id=${runId} not found`);
  return store.metricHistoryPages(services.knex, runId, key);
}

/** Revisions A and B: the last logged value of one metric. */
export async function getLastLoggedMetric(services: Services, runId: string, key: string): Promise<MetricRecord> {
  const run = await getRun(services, runId);
  const metric = run.lastLoggedMetrics.find((m) => m.key === key);
  if (!metric) throw notFound(`Metric '${key}' not found for run with id=${runId}`);
  return metric;
}

export async function getParam(services: Services, runId: string, key: string): Promise<KeyValue> {
  await getRun(services, runId);
  const value = await store.findParam(services.knex, runId, key);
  if (value === undefined) throw notFound(`Param '${key}' not found for run with id=${runId}`);
  return { key, value };
}
