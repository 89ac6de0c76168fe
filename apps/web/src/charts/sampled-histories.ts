// Downsampled metric histories of many runs (metrics/get-history-bulk-interval), as the charts ask
// for them: the compare page's charts and the runs page's charts view (also before its first render,
// views/runs/charts-view/early-histories.ts).
import type { Metric } from "@tracker-ml/client";
import { api } from "../api/client";

/** Points asked per run and chart; the server keeps each bucket's first, last, min and max. */
export const POINTS_PER_RUN = 1000;

/** Run ids the server samples in one request. */
const RUNS_PER_REQUEST = 100;

/** Sampled histories of one key for any number of runs (the server takes 100 run ids per request). */
export async function fetchSampled(
  runIds: readonly string[],
  key: string,
  range?: readonly [number, number],
  maxResults = POINTS_PER_RUN,
): Promise<Map<string, Metric[]>> {
  const chunks: string[][] = [];
  for (let i = 0; i < runIds.length; i += RUNS_PER_REQUEST) chunks.push(runIds.slice(i, i + RUNS_PER_REQUEST));
  const options = {
    maxResults,
    ...(range ? { startStep: Math.floor(range[0]), endStep: Math.ceil(range[1]) } : {}),
  };
  const answers = await Promise.all(chunks.map((ids) => api().getMetricHistoryBulkInterval(ids, key, options)));
  const byRun = new Map<string, Metric[]>(runIds.map((id) => [id, []]));
  for (const point of answers.flat()) byRun.get(point.runId)?.push(point);
  return byRun;
}
