import { getMetricHistoryBulkInterval } from "../../core/metric-sampling.js";
import { doubleOut } from "../../core/values.js";
import { requireField } from "../../core/values.js";
import { listOf, optionalInt } from "../input.js";
import { handlerTable } from "../operation-handler.js";

/** metrics/get-history-bulk-interval (spec/ext.yaml): downsampled histories for many runs. */
export const metricSamplingHandlers = handlerTable({
  async getMetricHistoryBulkInterval({ input, services }) {
    const points = await getMetricHistoryBulkInterval(services, {
      runIds: listOf(input.run_ids),
      metricKey: requireField("metric_key", input.metric_key),
      startStep: optionalInt("start_step", input.start_step),
      endStep: optionalInt("end_step", input.end_step),
      maxResults: optionalInt("max_results", input.max_results),
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
});
