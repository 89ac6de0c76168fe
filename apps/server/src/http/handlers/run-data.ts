import * as runData from "../../core/run-data.js";
import { LIMITS } from "../../core/limits.js";
import { invalidParameter } from "../../core/errors.js";
import type { MetricRecord } from "../../core/model.js";
import { toDouble, toInt64 } from "../../core/values.js";
import type { HandlerTable } from "../operation-handler.js";
import { keyValues, optionalInt, optionalString, requiredString, runId, type Input } from "../input.js";
import { metricOut } from "../shapes.js";

/** Metric, param and tag operations of every revision. */

function metricFrom(input: Input, where = ""): MetricRecord {
  if (input.value === undefined || input.value === null) throw invalidParameter(`Missing value for required parameter '${where}value'`);
  if (input.timestamp === undefined || input.timestamp === null) {
    throw invalidParameter(`Missing value for required parameter '${where}timestamp'`);
  }
  return {
    key: requiredString(input, "key"),
    value: toDouble(`${where}value`, input.value),
    timestamp: toInt64(`${where}timestamp`, input.timestamp),
    step: optionalInt(input, "step") ?? 0,
  };
}

export const runDataHandlers: HandlerTable = {
  async logMetric({ input, services }) {
    await runData.logMetric(services, runId(input), metricFrom(input));
    return {};
  },

  async logParam({ input, services }) {
    await runData.logParam(services, runId(input), { key: requiredString(input, "key"), value: optionalString(input, "value") ?? "" });
    return {};
  },

  async setTag({ revision, input, services }) {
    await runData.setTag(
      services,
      runId(input),
      { key: requiredString(input, "key"), value: optionalString(input, "value") ?? "" },
      // Revision B states the key bound in bytes; C guarantees 250 characters.
      revision === "c" ? {} : { keyChars: LIMITS.keyBytes, keyBytes: LIMITS.keyBytes },
    );
    return {};
  },

  async deleteTag({ input, services }) {
    await runData.deleteTag(services, runId(input), requiredString(input, "key"));
    return {};
  },

  async logBatch({ input, services }) {
    const rawMetrics = input.metrics ?? [];
    if (!Array.isArray(rawMetrics)) throw invalidParameter("'metrics' must be an array");
    await runData.logBatch(services, runId(input), {
      metrics: rawMetrics.map((m, i) => metricFrom(m as Input, `metrics[${i}].`)),
      params: keyValues(input, "params"),
      tags: keyValues(input, "tags"),
    });
    return {};
  },

  async logModel({ input, services }) {
    await runData.logModel(services, runId(input), requiredString(input, "model_json"));
    return {};
  },

  async getMetricHistory({ revision, input, services }) {
    const history = await runData.getMetricHistory(services, runId(input), requiredString(input, "metric_key"));
    return { metrics: history.map((m) => metricOut(revision, m)) };
  },

  async getMetric({ revision, input, services }) {
    const metric = await runData.getLastLoggedMetric(services, runId(input), requiredString(input, "metric_key"));
    return { metric: metricOut(revision, metric) };
  },

  async getParam({ input, services }) {
    return { parameter: await runData.getParam(services, runId(input), requiredString(input, "param_name")) };
  },
};
