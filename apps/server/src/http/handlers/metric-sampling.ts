import { getMetricHistoryBulkIntervalJson } from "../../core/metric-sampling.js";
import { requireField } from "../../core/values.js";
import { listOf, optionalInt } from "../input.js";
import { sendJsonText } from "../json-response.js";
import { handlerTable } from "../operation-handler.js";

/**
 * metrics/get-history-bulk-interval (spec/ext.yaml): downsampled histories for many runs. The
 * answer's points come as JSON text from the database (store/metric-sampling.ts), written as they are.
 */
export const metricSamplingHandlers = handlerTable({
  async getMetricHistoryBulkInterval({ input, services, res }) {
    const metrics = await getMetricHistoryBulkIntervalJson(services, {
      runIds: listOf(input.run_ids),
      metricKey: requireField("metric_key", input.metric_key),
      startStep: optionalInt("start_step", input.start_step),
      endStep: optionalInt("end_step", input.end_step),
      maxResults: optionalInt("max_results", input.max_results),
    });
    sendJsonText(res, `{"metrics":[${metrics}]}`);
    return undefined;
  },
});
