import type { Services } from "./services.js";
import { invalidParameter, notFound } from "./errors.js";
import { sampleMetricHistoriesJson, type SampleOptions } from "../store/metric-sampling.js";

/** Limits of metrics/get-history-bulk-interval, as MLflow 2.x has them. */
export const BULK_INTERVAL_LIMITS = { maxRuns: 100, maxResults: 2500 } as const;

export interface BulkIntervalRequest {
  runIds: string[];
  metricKey: string;
  startStep?: number;
  endStep?: number;
  maxResults?: number;
}

/**
 * Downsampled histories of one metric for up to 100 runs (see store/metric-sampling.ts), as the
 * JSON text of the answer's `metrics` elements.
 */
export async function getMetricHistoryBulkIntervalJson(
  services: Services,
  request: BulkIntervalRequest,
): Promise<string> {
  const { runIds, options } = await checkedRequest(services, request);
  return sampleMetricHistoriesJson(services.knex, runIds, request.metricKey, options);
}

/** The request's distinct run ids and sampling options, once its limits are checked and its runs found. */
async function checkedRequest(
  services: Services,
  request: BulkIntervalRequest,
): Promise<{ runIds: string[]; options: SampleOptions }> {
  const runIds = [...new Set(request.runIds)];
  if (runIds.length === 0) throw invalidParameter("Missing value for required parameter 'run_ids'");
  if (runIds.length > BULK_INTERVAL_LIMITS.maxRuns) {
    throw invalidParameter(
      `'run_ids' holds ${runIds.length} run ids; at most ${BULK_INTERVAL_LIMITS.maxRuns} are allowed`,
    );
  }
  if (!request.metricKey) throw invalidParameter("Missing value for required parameter 'metric_key'");
  const maxResults = request.maxResults ?? BULK_INTERVAL_LIMITS.maxResults;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > BULK_INTERVAL_LIMITS.maxResults) {
    throw invalidParameter(`'max_results' must be between 1 and ${BULK_INTERVAL_LIMITS.maxResults}, got ${maxResults}`);
  }
  if ((request.startStep === undefined) !== (request.endStep === undefined)) {
    throw invalidParameter("If either 'start_step' or 'end_step' is given, both must be given");
  }
  if (request.startStep !== undefined && request.endStep !== undefined && request.startStep > request.endStep) {
    throw invalidParameter(
      `'start_step' (${request.startStep}) must not be greater than 'end_step' (${request.endStep})`,
    );
  }
  const found = await services.knex("runs").whereIn("run_uuid", runIds).pluck("run_uuid");
  const missing = runIds.find((id) => !found.includes(id));
  if (missing !== undefined) throw notFound(`Run with id=${missing} not found`);
  return { runIds, options: { startStep: request.startStep, endStep: request.endStep, maxResults } };
}
