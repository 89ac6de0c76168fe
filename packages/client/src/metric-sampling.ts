// Downsampled metric histories for many runs (ext operation getMetricHistoryBulkInterval).
import { ClientCore } from "./client-core.js";
import type { Metric } from "./entities.js";
import { expectData } from "./response.js";
import { fromWireDouble } from "./wire.js";

/** One sampled value of a metric, with the run that logged it. */
export interface SampledMetric extends Metric {
  runId: string;
}

export interface MetricHistoryBulkIntervalOptions {
  /** Inclusive step range; give both or neither. */
  startStep?: number;
  endStep?: number;
  /** Most points per run (1 to 2500; 2500 when omitted). */
  maxResults?: number;
}

export class MetricSamplingClient extends ClientCore {
  /**
   * The history of one metric for up to 100 runs, each sampled by the server to at most
   * `maxResults` points that keep every bucket's first, last, minimum and maximum value.
   * Points come ordered by run id, then step.
   */
  async getMetricHistoryBulkInterval(
    runIds: readonly string[],
    metricKey: string,
    options: MetricHistoryBulkIntervalOptions = {},
  ): Promise<SampledMetric[]> {
    const query = {
      run_ids: [...runIds],
      metric_key: metricKey,
      start_step: options.startStep,
      end_step: options.endStep,
      max_results: options.maxResults,
    };
    const data = await expectData(
      this.ext.GET("/api/2.0/tracker/metrics/get-history-bulk-interval", { params: { query } }),
    );
    return data.metrics.map((m) => ({
      key: m.key,
      value: fromWireDouble(m.value),
      timestamp: m.timestamp,
      step: m.step,
      runId: m.run_id,
    }));
  }
}
