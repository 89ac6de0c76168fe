// Data both web benchmarks seed through @tracker-ml/client: loss curves of many points per run.
import type { TrackerClient } from "@tracker-ml/client";

/** Runs `task` over `items` with at most `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/** Creates `count` runs named curve-0, curve-1, … in the experiment, one after the other; their ids. */
export async function createCurveRuns(client: TrackerClient, experimentId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let r = 0; r < count; r++)
    ids.push((await client.createRun(experimentId, { runName: `curve-${r}` })).info.run_id);
  return ids;
}

/**
 * Logs `points` steps of the metric `loss` to each run (a decaying curve with spikes every 9973
 * steps), in log-batch requests of 1000 metrics, 4 at once.
 */
export async function logLossCurves(client: TrackerClient, ids: readonly string[], points: number): Promise<void> {
  const batches: Array<{ id: string; from: number }> = [];
  for (const id of ids) for (let from = 0; from < points; from += 1000) batches.push({ id, from });
  await pool(batches, 4, async ({ id, from }) => {
    const metrics = Array.from({ length: Math.min(1000, points - from) }, (_, i) => {
      const step = from + i;
      return {
        key: "loss",
        value: Math.exp(-step / 20_000) + 0.05 * Math.sin(step / 37) + (step % 9973 === 0 ? 2 : 0),
        step,
        timestamp: 1_700_000_000_000 + step,
      };
    });
    await client.logBatch(id, { metrics });
  });
}
