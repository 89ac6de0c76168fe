/**
 * pnpm --filter @tracker/web-bench bench:bulk-interval: the downsampled-history request alone, and
 * what keeping it fast costs the writes. Against tracker on PostgreSQL (TEST_DATABASE_URL, or a
 * throwaway cluster through scripts/with-postgres.sh), data created through @tracker-ml/client:
 * - metrics/get-history-bulk-interval over RUNS runs x POINTS distinct points (median of 20
 *   requests with 1000 points per run, 5 with 2500, 20 with a narrow step range);
 * - runs/log-batch of 1,000 metrics (10 keys x 100 steps, distinct data every request), one at a
 *   time, and runs/log-metric one value a request, one at a time and 8 at once.
 * Prints the figures with the load average; writes nothing. Options: --quick (small data), --help.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TrackerClient } from "@tracker-ml/client";
import { loadConfig, startServer } from "@tracker/server";
import { bulkIntervalCommand, parseWebBenchArgs } from "./options.js";
import { createCurveRuns, logLossCurves, pool } from "./seed.js";
import { median, percentile } from "./stats.js";

const { quick } = parseWebBenchArgs(process.argv.slice(2), bulkIntervalCommand());
const SIZES = quick
  ? { runs: 3, points: 10_000, batches: 10, metrics: 200 }
  : { runs: 10, points: 100_000, batches: 40, metrics: 1000 };

async function timed(times: number, task: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await task(i);
    out.push(performance.now() - t);
  }
  return out;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;

async function main() {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error("TEST_DATABASE_URL is not set (run through scripts/with-postgres.sh)");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bulk-interval-bench-"));
  const config = loadConfig({}, { port: 0, host: "127.0.0.1", dataDir, databaseUrl, logLevel: "silent" });
  const server = await startServer(config);
  const client = new TrackerClient({ baseUrl: server.url });
  try {
    console.log(`load average at start: ${load()}; ${os.cpus().length} vCPU`);
    const experimentId = await client.createExperiment("bulk-interval");
    const ids = await createCurveRuns(client, experimentId, SIZES.runs);
    const seedStart = performance.now();
    await logLossCurves(client, ids, SIZES.points);
    console.log(
      `seeded ${SIZES.runs} x ${SIZES.points} points in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (log-batch of 1000, 4 at once)`,
    );

    const check = await client.getMetricHistoryBulkInterval(ids, "loss", { maxResults: 1000 });
    console.log(`answer: ${check.length} points for ${SIZES.runs} runs`);
    await timed(3, () => client.getMetricHistoryBulkInterval(ids, "loss", { maxResults: 1000 }));
    const thousand = await timed(20, () => client.getMetricHistoryBulkInterval(ids, "loss", { maxResults: 1000 }));
    console.log(`bulk-interval ${SIZES.runs} runs x ${SIZES.points}, 1000/run: ${fmt(thousand)} (load ${load()})`);
    const full = await timed(5, () => client.getMetricHistoryBulkInterval(ids, "loss", { maxResults: 2500 }));
    console.log(`bulk-interval 2500/run: ${fmt(full)}`);
    const zoom = await timed(20, (i) =>
      client.getMetricHistoryBulkInterval(ids, "loss", {
        maxResults: 1000,
        startStep: 1000 * i + 17,
        endStep: 1000 * i + 5017,
      }),
    );
    console.log(`bulk-interval zoomed (5000 steps), 1000/run: ${fmt(zoom)}`);

    // Writes: distinct data every request, to runs of their own.
    const writer = (await client.createRun(experimentId, { runName: "writer" })).info.run_id;
    const keys = 10;
    const steps = SIZES.metrics / keys;
    const batch = await timed(SIZES.batches, (n) =>
      client.logBatch(writer, {
        metrics: Array.from({ length: SIZES.metrics }, (_, i) => ({
          key: `batch_${i % keys}`,
          value: Math.sin(n * SIZES.metrics + i),
          step: n * steps + Math.floor(i / keys),
          timestamp: 1_700_000_000_000 + n,
        })),
      }),
    );
    console.log(`log-batch of ${SIZES.metrics} metrics (${keys} keys), one at a time: ${fmt(batch)} (load ${load()})`);
    const single = await timed(500, (n) =>
      client.logMetric(writer, "single", Math.cos(n), { step: n, timestamp: 1_700_000_000_000 + n }),
    );
    console.log(
      `log-metric, one at a time: ${fmt(single)}, ${(1000 / (single.reduce((a, b) => a + b, 0) / single.length)).toFixed(0)} req/s`,
    );
    const parallelRuns: string[] = [];
    for (let r = 0; r < 8; r++)
      parallelRuns.push((await client.createRun(experimentId, { runName: `writer-${r}` })).info.run_id);
    const requests = Array.from({ length: 2000 }, (_, n) => n);
    const start = performance.now();
    await pool(requests, 8, async (n) =>
      client.logMetric(parallelRuns[n % 8]!, "parallel", Math.sin(n), { step: n, timestamp: 1_700_000_000_000 + n }),
    );
    console.log(
      `log-metric, 8 at once: ${(requests.length / ((performance.now() - start) / 1000)).toFixed(0)} req/s (load ${load()})`,
    );
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
