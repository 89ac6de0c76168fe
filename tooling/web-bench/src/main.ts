/**
 * pnpm bench (web part): the web UI in Debian Chromium against tracker on PostgreSQL.
 * Measures the initial JavaScript, the runs page with 1,000 runs, scrolling a table of 10,000
 * runs, a chart of 10 runs x 100,000 points and the downsampled request behind it; prints the
 * figures and writes them into docs/benchmarks.md (its own marked section).
 * Options: --quick (small data, nothing written), --no-write, --help (options.ts).
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@tracker/testing/chromium";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { TrackerClient } from "@tracker-ml/client";
import { loadConfig, startServer } from "@tracker/server";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { parseWebBenchArgs } from "./options.js";
import { createCurveRuns, logLossCurves, pool } from "./seed.js";
import {
  CHARTS_VIEW_QUICK,
  CHARTS_VIEW_SIZE,
  chartsViewInteractive,
  chartsViewScroll,
  seedChartsView,
} from "./charts-view.js";
import { initialJs, median, percentile, replaceSection } from "./stats.js";
import { maxAge, summarise, watchNetwork, type Transfer } from "./transfer.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const webDir = path.join(root, "apps/web/dist");
const { quick, write, only } = parseWebBenchArgs(process.argv.slice(2));
const CHARTS_VIEW = quick ? CHARTS_VIEW_QUICK : CHARTS_VIEW_SIZE;
const SIZES = quick
  ? { runs: 100, manyRuns: 1000, chartRuns: 3, points: 10_000, transferRuns: 300 }
  : { runs: 1000, manyRuns: 10_000, chartRuns: 10, points: 100_000, transferRuns: 2000 };
/** The columns shown while measuring the transfer: what a user of the table would pick. */
const TRANSFER_COLUMNS = "metrics.acc,metrics.loss,params.lr";

async function seedRuns(client: TrackerClient, name: string, count: number, withMetrics: boolean): Promise<string> {
  const experimentId = await client.createExperiment(name);
  await pool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const run = await client.createRun(experimentId, {
        runName: `run-${i}`,
        startTime: 1_700_000_000_000 + i * 1000,
        tags: { "tracker.user": "bench" },
      });
      if (withMetrics)
        await client.logBatch(run.info.run_id, {
          metrics: [
            { key: "acc", value: Math.random() },
            { key: "loss", value: Math.random() },
          ],
          params: { lr: i % 10 },
        });
    },
  );
  return experimentId;
}

async function seedChart(client: TrackerClient): Promise<string[]> {
  const experimentId = await client.createExperiment("chart");
  const ids = await createCurveRuns(client, experimentId, SIZES.chartRuns);
  await logLossCurves(client, ids, SIZES.points);
  return ids;
}

async function runsPageInteractive(page: Page, url: string, experimentId: string): Promise<number> {
  await page.goto(`${url}/runs?e=${experimentId}`);
  await page.waitForFunction(() => document.querySelectorAll("[role=row][data-run-id]").length > 0);
  // Interactive: rows are there and a click on a checkbox is handled at once.
  await page.locator("[role=row][data-run-id] input[type=checkbox]").first().click();
  return page.evaluate(() => performance.now());
}

async function loadAllRows(page: Page, total: number): Promise<void> {
  const table = page.getByTestId("runs-table");
  for (;;) {
    const loaded = await page.evaluate(() =>
      Number(/(\d+) runs? loaded/.exec(document.body.textContent ?? "")?.[1] ?? 0),
    );
    const done = await page.evaluate(
      () =>
        !/scroll for more/.test(document.body.textContent ?? "") && !/loading…/.test(document.body.textContent ?? ""),
    );
    if (loaded >= total && done) return;
    await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForFunction(
      (n) =>
        Number(/(\d+) runs? loaded/.exec(document.body.textContent ?? "")?.[1] ?? 0) > n ||
        !/scroll for more/.test(document.body.textContent ?? ""),
      loaded,
    );
  }
}

// In-page code is passed as source text: tsx would otherwise wrap its inner functions in a
// `__name` helper that does not exist in the page.
const SCROLL_STEP_PX = Number(process.env.SCROLL_STEP_PX ?? 200);
const SCROLL_FRAMES = `new Promise((resolve) => {
  const STEP = ${SCROLL_STEP_PX};
  const el = document.querySelector("[data-testid=runs-table]");
  el.scrollTop = 0;
  const frames = [];
  let last = performance.now();
  function step() {
    const now = performance.now();
    frames.push(now - last);
    last = now;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) { resolve(frames.slice(1)); return; }
    el.scrollTop += STEP;
    requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
})`;

/** Scrolls the table from top to bottom, a fixed distance per frame; returns each frame's duration. */
async function scrollFrames(page: Page): Promise<number[]> {
  return page.evaluate(SCROLL_FRAMES) as Promise<number[]>;
}

async function chartDrawn(page: Page, url: string, runIds: string[]): Promise<{ drawMs: number; requestMs: number }> {
  await page.goto(`${url}/compare?charts=loss&runs=${runIds.join(",")}`);
  await page.waitForFunction(() =>
    document.querySelector("[aria-label='Chart of loss']")?.hasAttribute("data-drawn-at"),
  );
  return page.evaluate(() => {
    const entry = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("get-history-bulk-interval"))
      .pop() as PerformanceResourceTiming;
    const drawn = Number(document.querySelector("[aria-label='Chart of loss']")!.getAttribute("data-drawn-at"));
    return { drawMs: drawn - entry.responseEnd, requestMs: entry.responseEnd - entry.requestStart };
  });
}

/** uPlot alone drawing every point (10 x 100k), as a reference for the full-resolution case. */
async function rawUplot(page: Page): Promise<number> {
  const require = createRequire(import.meta.url);
  const uplotDir = path.dirname(require.resolve("uplot/package.json", { paths: [path.join(root, "apps/web")] }));
  await page.goto("about:blank");
  await page.addStyleTag({ path: path.join(uplotDir, "dist/uPlot.min.css") });
  await page.addScriptTag({ path: path.join(uplotDir, "dist/uPlot.iife.min.js") });
  return page.evaluate(`new Promise((resolve) => {
    const runs = ${SIZES.chartRuns}, points = ${SIZES.points};
    const xs = Float64Array.from({ length: points }, (_, i) => i);
    const data = [xs];
    for (let r = 0; r < runs; r++) data.push(Float64Array.from({ length: points }, (_, i) => Math.exp(-i / 20000) + r * 0.01 + 0.05 * Math.sin(i / 37)));
    const host = document.createElement("div");
    document.body.append(host);
    const series = [{}];
    for (let r = 0; r < runs; r++) series.push({ stroke: "red" });
    const start = performance.now();
    new uPlot({ width: 800, height: 300, series }, data, host);
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
  })`) as Promise<number>;
}

/**
 * Scrolls a table of SIZES.transferRuns runs (two metrics and a param shown) to its end and reads
 * the bytes on the wire; the first navigation's scripts and styles give the asset figures.
 */
async function measureTransfer(context: BrowserContext, url: string, experimentId: string): Promise<Transfer> {
  const page = await context.newPage();
  const network = await watchNetwork(context, page);
  await page.goto(`${url}/runs?e=${experimentId}&cols=${TRANSFER_COLUMNS}`);
  await page.locator("[role=row][data-run-id]").first().waitFor();
  await loadAllRows(page, SIZES.transferRuns);
  const transfer = summarise(network.read());
  await network.detach();
  await page.close();
  return transfer;
}

function printTransfer(t: Transfer): void {
  console.log(
    `scroll ${SIZES.transferRuns} runs (${TRANSFER_COLUMNS}): ${t.searchRequests} requests, ${(t.searchWireBytes / 1024).toFixed(1)} KB on the wire, ${(t.searchJsonBytes / 1024).toFixed(1)} KB of JSON decoded`,
  );
  for (const a of t.assets)
    console.log(
      `  ${a.url}: ${a.encoding}, ${(a.wireBytes / 1024).toFixed(1)} KB on the wire, ${a.hashed ? "hashed name" : "plain name"}, Cache-Control: ${a.cacheControl || "(none)"}`,
    );
}

/** Whether every hashed script and style came compressed with a year-long, immutable cache life. */
function assetsCached(t: Transfer): boolean {
  const hashed = t.assets.filter((a) => a.hashed);
  return (
    hashed.length > 0 &&
    hashed.every(
      (a) =>
        (a.encoding === "br" || a.encoding === "gzip" || a.wireBytes < 1500) &&
        maxAge(a.cacheControl) >= 31_536_000 &&
        a.cacheControl.includes("immutable"),
    )
  );
}

async function main() {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error("TEST_DATABASE_URL is not set (run through scripts/with-postgres.sh)");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "web-bench-"));
  const config = loadConfig({}, { port: 0, host: "127.0.0.1", dataDir, databaseUrl, webDir, logLevel: "silent" });
  const server = await startServer(config);
  const client = new TrackerClient({ baseUrl: server.url });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  try {
    if (only === "transfer") {
      console.log(`seeding ${SIZES.transferRuns} runs…`);
      const transferId = await seedRuns(client, "transfer", SIZES.transferRuns, true);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const t = await measureTransfer(context, server.url, transferId);
      printTransfer(t);
      console.log(`assets compressed, hashed and cached a year: ${assetsCached(t) ? "yes" : "no"}`);
      await context.close();
      return;
    }
    const size = initialJs(webDir);
    console.log(`initial JS: ${(size.gzip / 1024).toFixed(1)} KB gzipped (${(size.raw / 1024).toFixed(0)} KB raw)`);
    console.log(`seeding ${SIZES.runs} + ${SIZES.manyRuns} runs and ${SIZES.chartRuns} x ${SIZES.points} points…`);
    const thousand = await seedRuns(client, "thousand", SIZES.runs, true);
    const transferId = await seedRuns(client, "transfer", SIZES.transferRuns, true);
    const many = await seedRuns(client, "many", SIZES.manyRuns, false);
    const curves = await seedChart(client);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const transfer = await measureTransfer(context, server.url, transferId);
    printTransfer(transfer);
    const page = await context.newPage();
    const interactive: number[] = [];
    for (let i = 0; i < 5; i++) interactive.push(await runsPageInteractive(page, server.url, thousand));
    console.log(`runs page (${SIZES.runs} runs) interactive: median ${median(interactive).toFixed(0)} ms`);

    await page.goto(`${server.url}/runs?e=${many}`);
    await page.locator("[role=row][data-run-id]").first().waitFor();
    await loadAllRows(page, SIZES.manyRuns);
    const frames = await scrollFrames(page);
    console.log(
      `scroll ${SIZES.manyRuns} rows: ${frames.length} frames, p95 ${percentile(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms`,
    );

    const charts: Array<{ drawMs: number; requestMs: number }> = [];
    for (let i = 0; i < 5; i++) charts.push(await chartDrawn(page, server.url, curves));
    const draw = median(charts.map((c) => c.drawMs));
    console.log(`chart ${SIZES.chartRuns} x ${SIZES.points}: drawn ${draw.toFixed(0)} ms after the data arrived`);
    const raw: number[] = [];
    for (let i = 0; i < 3; i++) raw.push(await rawUplot(page));
    console.log(`uPlot alone, every point: ${median(raw).toFixed(0)} ms`);

    // The request's answer: a plain fetch timed until its whole body has arrived (what the server
    // and the network take); the client's call also decodes the JSON into objects, shown beside it.
    const bulkUrl = (maxResults: number) =>
      `${server.url}/api/2.0/tracker/metrics/get-history-bulk-interval?${new URLSearchParams([...curves.map((id) => ["run_ids", id]), ["metric_key", "loss"], ["max_results", String(maxResults)]])}`;
    const answered = async (maxResults: number, times: number) => {
      const out: number[] = [];
      for (let i = 0; i < times; i++) {
        const t = performance.now();
        const response = await fetch(bulkUrl(maxResults));
        if (!response.ok) throw new Error(`bulk-interval answered ${response.status}`);
        await response.arrayBuffer();
        out.push(performance.now() - t);
      }
      return out;
    };
    await answered(1000, 3);
    const requests = await answered(1000, 20);
    const full = await answered(2500, 5);
    const viaClient: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await client.getMetricHistoryBulkInterval(curves, "loss", { maxResults: 1000 });
      viaClient.push(performance.now() - t);
    }
    const inBrowser = median(charts.map((c) => c.requestMs));
    console.log(
      `bulk-interval on PostgreSQL (${SIZES.chartRuns} runs x ${SIZES.points}, 1000/run): answered in median ${median(requests).toFixed(0)} ms, p95 ${percentile(requests, 95).toFixed(0)} ms; 2500/run median ${median(full).toFixed(0)} ms; through the client ${median(viaClient).toFixed(0)} ms; the chart's own request in Chromium ${inBrowser.toFixed(0)} ms`,
    );

    const { experimentId: chartsViewExperiment } = await seedChartsView(client, CHARTS_VIEW);
    const chartsView: number[] = [];
    // A scroll through all cards right after each navigation's cards in view were drawn (the cards
    // below are still being fetched and drawn): the frames of the 5 scrolls together.
    const chartsViewFrames: number[] = [];
    for (let i = 0; i < 5; i++) {
      chartsView.push(await chartsViewInteractive(page, server.url, chartsViewExperiment, CHARTS_VIEW.runs));
      chartsViewFrames.push(...(await chartsViewScroll(page)));
    }
    const chartsViewLabel = `${CHARTS_VIEW.runs} runs × ${CHARTS_VIEW.metrics} metrics × ${CHARTS_VIEW.steps} steps`;
    console.log(
      `charts view ${chartsViewLabel}: cards in view drawn ${median(chartsView).toFixed(0)} ms after navigation; scroll p95 ${percentile(chartsViewFrames, 95).toFixed(1)} ms`,
    );

    const ok = (pass: boolean) => (pass ? "yes" : "**no**");
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ");
    const section = `## Web UI (tooling/web-bench)

Measured by \`pnpm bench\` (\`tooling/web-bench\`) on ${new Date().toISOString().slice(0, 10)}: Debian Chromium ${browser.version()} headless, ${os.cpus().length} vCPU, Node ${process.version}, tracker on PostgreSQL (throwaway cluster), data created through \`@tracker-ml/client\`. Load average at the end: ${load} (1, 5, 15 min); the machine is shared, so figures vary with its load.

| what | figure | target | met |
|---|---|---|---|
| initial JavaScript of the first page (entry + preloads, gzip -9) | ${(size.gzip / 1024).toFixed(1)} KB (${(size.raw / 1024).toFixed(0)} KB raw) | ≤ 250 KB | ${ok(size.gzip <= 250 * 1024)} |
| runs page with ${SIZES.runs} runs: navigation to first rows clickable (median of 5) | ${median(interactive).toFixed(0)} ms | < 1 s | ${ok(median(interactive) < 1000)} |
| runs table with ${SIZES.manyRuns} runs: scroll top to bottom, ${SCROLL_STEP_PX} px per frame (${frames.length} frames) | p95 ${percentile(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms | p95 < 20 ms | ${ok(percentile(frames, 95) < 20)} |
| chart of ${SIZES.chartRuns} runs × ${SIZES.points} points (server-sampled, 1000 points per run): drawn after the data arrived (median of 5) | ${draw.toFixed(0)} ms | < 300 ms | ${ok(draw < 300)} |
| runs page's charts view, ${chartsViewLabel}: navigation to every card in view drawn (median of 5) | ${median(chartsView).toFixed(0)} ms | < 1 s | ${ok(median(chartsView) < 1000)} |
| the same: scroll through all cards right after each navigation, the cards below drawn on the way (5 scrolls, ${chartsViewFrames.length} frames) | p95 ${percentile(chartsViewFrames, 95).toFixed(1)} ms, max ${Math.max(...chartsViewFrames).toFixed(1)} ms | p95 < 20 ms | ${ok(percentile(chartsViewFrames, 95) < 20)} |
| runs table of ${SIZES.transferRuns} runs (${TRANSFER_COLUMNS} shown) scrolled to its end: JSON on the wire (${transfer.searchRequests} requests; ${(transfer.searchJsonBytes / 1024).toFixed(0)} KB decoded) | ${(transfer.searchWireBytes / 1024).toFixed(1)} KB | ≤ 300 KB | ${ok(transfer.searchWireBytes <= 300 * 1024)} |
| scripts and styles of the first page: compressed, hashed names, \`max-age\` ≥ 1 year + immutable (${transfer.assets.map((a) => `${a.url.split("/").pop()} ${a.encoding} ${(a.wireBytes / 1024).toFixed(1)} KB`).join(", ")}) | ${assetsCached(transfer) ? "all" : "not all"} | all | ${ok(assetsCached(transfer))} |
| for reference: uPlot alone drawing every point (${SIZES.chartRuns} × ${SIZES.points}), creation to 2 frames (median of 3) | ${median(raw).toFixed(0)} ms | | |
| metrics/get-history-bulk-interval, ${SIZES.chartRuns} runs × ${SIZES.points} points, 1000 per run, PostgreSQL: answered, whole body received (fetch, 20 requests) | median ${median(requests).toFixed(0)} ms, p95 ${percentile(requests, 95).toFixed(0)} ms | < 100 ms | ${ok(median(requests) < 100)} |
| the same request in Chromium, the chart's own (resource timing, request start to response end, median of 5) | ${inBrowser.toFixed(0)} ms | | |
| the same through \`@tracker-ml/client\` in Node, JSON decoded into objects (20 requests) | median ${median(viaClient).toFixed(0)} ms | | |
| the same with 2500 per run, answered (5 requests) | median ${median(full).toFixed(0)} ms | | |
`;
    console.log(`\n${section}`);
    if (write) {
      const file = path.join(root, "docs/benchmarks.md");
      const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
      fs.writeFileSync(file, replaceSection(current, section));
      console.log(`wrote ${path.relative(root, file)}`);
    }
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
