import { getMetricHistoryBulkInterval } from "../../core/metric-sampling.js";
import { doubleOut } from "../../core/values.js";
import { optionalInt, requiredString, stringArray } from "../input.js";
import type { HandlerTable } from "../operation-handler.js";

/** metrics/get-history-bulk-interval (spec/ext.yaml): downsampled histories for many runs. */
export const metricSamplingHandlers: HandlerTable = {
  async getMetricHistoryBulkInterval({ input, services }) {
    const points = await getMetricHistoryBulkInterval(services, {
      runIds: stringArray(input, "run_ids"),
      metricKey: requiredString(input, "metric_key"),
      startStep: optionalInt(input, "start_step"),
      endStep: optionalInt(input, "end_step"),
      maxResults: optionalInt(input, "max_results"),
    });
    return {
      metrics: points.map((p) => ({
        key: p.key,
        value: doubleOut(p.value),
        timestamp: p.timestamp,
        step: p.step,
        run_id: p.runId,
      })),
    };
  },
};
