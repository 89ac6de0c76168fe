/**
 * pnpm --filter @tracker/web-bench bench:charts-view: the runs page's charts view alone (100 runs x
 * 8 metrics x 1,000 steps), the same scenario `pnpm bench:web` runs; prints only.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@tracker/testing/chromium";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TrackerClient } from "@tracker-ml/client";
import { loadConfig, startServer } from "@tracker/server";
import { chromium } from "playwright-core";
import {
  CHARTS_VIEW_QUICK,
  CHARTS_VIEW_SIZE,
  chartsViewInteractive,
  chartsViewRequests,
  chartsViewScroll,
  seedChartsView,
} from "./charts-view.js";
import { median, percentile } from "./stats.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const webDir = path.resolve(here, "../../../apps/web/dist");
const size = process.argv.includes("--quick") ? CHARTS_VIEW_QUICK : CHARTS_VIEW_SIZE;

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error("TEST_DATABASE_URL is not set (run through scripts/with-postgres.sh)");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "charts-view-bench-"));
const config = loadConfig({}, { port: 0, host: "127.0.0.1", dataDir, databaseUrl, webDir, logLevel: "silent" });
const server = await startServer(config);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  const client = new TrackerClient({ baseUrl: server.url });
  let t = performance.now();
  const experimentId = await seedChartsView(client, size);
  console.log(
    `seeded ${size.runs} runs x ${size.metrics} metrics x ${size.steps} steps in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const interactive: number[] = [];
  for (let i = 0; i < 5; i++) {
    interactive.push(await chartsViewInteractive(page, server.url, experimentId, size.runs));
    console.log(`  ${interactive.at(-1)!.toFixed(0)} ms: ${await chartsViewRequests(page)}`);
  }
  const frames = await chartsViewScroll(page);
  t = performance.now();
  console.log(
    `charts view ${size.runs} x ${size.metrics} x ${size.steps}: cards in view drawn ${median(interactive).toFixed(0)} ms after navigation (median of 5: ${interactive.map((v) => v.toFixed(0)).join(", ")}); scroll through all cards: ${frames.length} frames, p95 ${percentile(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms; load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  await context.close();
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
