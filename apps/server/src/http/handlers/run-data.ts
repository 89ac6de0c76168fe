import * as runData from "../../core/run-data.js";
import { LIMITS } from "../../core/limits.js";
import { missingValue } from "../../core/errors.js";
import type { MetricRecord } from "../../core/model.js";
import { requireField, toDouble, toInt64 } from "../../core/values.js";
import type { Response } from "express";
import { answerCompression } from "../compress.js";
import { handlerTable } from "../operation-handler.js";
import { keyValues, optionalInt, runId } from "../input.js";
import { linkedMetricOut, metricOut } from "../shapes.js";
import { invalidParameter } from "../../core/errors.js";

/** Metric, param and tag operations of every revision. */

/** A metric as requests carry it (logMetric's body, an item of logBatch's metrics). */
interface MetricInput {
  key: string;
  value: number | string;
  timestamp: number | string;
  step?: number | string;
  /** MLflow 3's linkage of the point. */
  model_id?: string;
  dataset_name?: string;
  dataset_digest?: string;
}

function metricFrom(input: MetricInput, where = ""): MetricRecord {
  if (input.value === undefined || input.value === null) throw missingValue(`${where}value`);
  if (input.timestamp === undefined || input.timestamp === null) throw missingValue(`${where}timestamp`);
  const metric: MetricRecord = {
    key: requireField("key", input.key),
    value: toDouble(`${where}value`, input.value),
    timestamp: toInt64(`${where}timestamp`, input.timestamp),
    step: optionalInt("step", input.step) ?? 0,
  };
  return withLinkage(metric, input);
}

/**
 * MLflow 3's linkage of a point: model_id, dataset_name and dataset_digest (an empty string counts
 * as absent, as in MLflow's handler); a dataset needs both its name and its digest.
 */
function withLinkage(metric: MetricRecord, input: MetricInput): MetricRecord {
  const modelId = input.model_id || undefined;
  const datasetName = input.dataset_name || undefined;
  const datasetDigest = input.dataset_digest || undefined;
  if ((datasetName === undefined) !== (datasetDigest === undefined))
    throw invalidParameter("Both dataset_name and dataset_digest must be provided if one is provided");
  if (modelId !== undefined) metric.modelId = modelId;
  if (datasetName !== undefined) metric.datasetName = datasetName;
  if (datasetDigest !== undefined) metric.datasetDigest = datasetDigest;
  return metric;
}

export const runDataHandlers = handlerTable({
  async logMetric({ input, services }) {
    await runData.logMetric(services, runId(input), metricFrom(input));
    return {};
  },

  async logParam({ input, services }) {
    await runData.logParam(services, runId(input), { key: requireField("key", input.key), value: input.value ?? "" });
    return {};
  },

  async setTag({ revision, input, services }) {
    await runData.setTag(
      services,
      runId(input),
      { key: requireField("key", input.key), value: input.value ?? "" },
      // Revision B states the key bound in bytes; C guarantees 250 characters.
      revision === "c" ? {} : { keyChars: LIMITS.keyBytes, keyBytes: LIMITS.keyBytes },
    );
    return {};
  },

  async deleteTag({ input, services }) {
    await runData.deleteTag(services, runId(input), requireField("key", input.key));
    return {};
  },

  async logBatch({ input, services }) {
    await runData.logBatch(services, runId(input), {
      metrics: (input.metrics ?? []).map((m, i) => metricFrom(m, `metrics[${i}].`)),
      params: keyValues(input.params),
      tags: keyValues(input.tags),
    });
    return {};
  },

  async logModel({ input, services }) {
    await runData.logModel(services, runId(input), requireField("model_json", input.model_json));
    return {};
  },

  /**
   * Streamed: `{"metrics":[...]}` is written page by page as the database returns them (the same
   * bytes res.json would send), so a history of any length needs memory for one page only.
   */
  async getMetricHistory({ revision, input, services, res, mlflow }) {
    const pages = await runData.getMetricHistory(services, runId(input), requireField("metric_key", input.metric_key));
    // MLflow's paths answer each point's model and dataset (MLflow 3) when it has them.
    const shape = mlflow ? linkedMetricOut : metricOut;
    await streamJsonArray(res, "metrics", pages, (m) => shape(revision, m));
    return undefined;
  },

  async getMetric({ revision, input, services }) {
    const metric = await runData.getLastLoggedMetric(
      services,
      runId(input),
      requireField("metric_key", input.metric_key),
    );
    return { metric: metricOut(revision, metric) };
  },

  async getParam({ input, services }) {
    return { parameter: await runData.getParam(services, runId(input), requireField("param_name", input.param_name)) };
  },
});

/** Writes a chunk; resolves false when the client went away (waits for 'drain' when buffers are full). */
function writeChunk(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * Sends `{"<field>":[item, ...]}` from pages of items. The first page is read before anything is
 * written, so a failure there is an ordinary error response; a failure after the headers went out
 * can only abort the connection (the client sees a truncated body, never a wrong one).
 */
async function streamJsonArray<T>(
  res: Response,
  field: string,
  pages: AsyncIterable<T[]>,
  shape: (item: T) => unknown,
): Promise<void> {
  const iterator = pages[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).type("application/json");
  answerCompression(res);
  let first = true;
  try {
    if (!(await writeChunk(res, `{${JSON.stringify(field)}:[`))) return;
    while (!next.done) {
      const items = next.value;
      if (items.length > 0) {
        // One JSON.stringify per page (its brackets cut off): the bytes of res.json, faster than one call per item.
        const chunk = (first ? "" : ",") + JSON.stringify(items.map(shape)).slice(1, -1);
        first = false;
        if (!(await writeChunk(res, chunk))) return;
      }
      next = await iterator.next();
    }
    res.end("]}");
  } catch (err) {
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    if (!next.done) await iterator.return?.();
  }
}
