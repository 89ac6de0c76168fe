// The runs page's charts view under load (issue 31): 100 runs x 8 metrics of 1,000 steps each.
// Measures navigation to every card in view drawn (interactive), and the frames of a scroll through
// all cards (cards fetch and draw lazily as they come into view).
import type { TrackerClient } from "@tracker-ml/client";
import type { BrowserContext, Page } from "playwright-core";
import { pool } from "./seed.js";
import { median } from "./stats.js";

export interface ChartsViewSize {
  runs: number;
  metrics: number;
  steps: number;
}

export const CHARTS_VIEW_SIZE: ChartsViewSize = { runs: 100, metrics: 8, steps: 1000 };
export const CHARTS_VIEW_QUICK: ChartsViewSize = { runs: 20, metrics: 4, steps: 200 };

/** An experiment of `runs` runs, each with `metrics` metrics (m0 … m7) of `steps` steps; its id and its runs' ids. */
export async function seedChartsView(
  client: TrackerClient,
  size: ChartsViewSize,
): Promise<{ experimentId: string; runIds: string[] }> {
  const experimentId = await client.createExperiment(`charts-view-${size.runs}x${size.metrics}x${size.steps}`);
  const ids: string[] = [];
  for (let r = 0; r < size.runs; r++)
    ids.push(
      (await client.createRun(experimentId, { runName: `run-${r}`, startTime: 1_700_000_000_000 - r * 1000 })).info
        .run_id,
    );
  // log-batch takes 1000 metrics: a request per run and metric.
  const batches = ids.flatMap((id, r) => Array.from({ length: size.metrics }, (_, m) => ({ id, r, m })));
  await pool(batches, 4, async ({ id, r, m }) => {
    const metrics = Array.from({ length: size.steps }, (_, step) => ({
      key: `m${m}`,
      value: Math.exp(-step / (200 + r)) * (1 + m / 10) + 0.02 * Math.sin(step / 13 + r),
      step,
      timestamp: 1_700_000_000_000 + step * 1000,
    }));
    await client.logBatch(id, { metrics, params: m === 0 ? { group: `g${r % 4}` } : undefined });
  });
  return { experimentId, runIds: ids };
}

/**
 * In-page: resolves with performance.now() once every card within the viewport has drawn its chart
 * with data: as many history requests answered as there are cards in view, and each card drawn
 * after the first answer (a chart drawn before any history came, e.g. empty while the runs were
 * loading, does not count).
 */
const CARDS_IN_VIEW_DRAWN = `new Promise((resolve) => {
  function check() {
    const cards = [...document.querySelectorAll("article.chart-card")];
    const inView = cards.filter((c) => c.getBoundingClientRect().top < window.innerHeight);
    const answers = performance.getEntriesByType("resource").filter((e) => e.name.includes("get-history-bulk-interval"));
    const firstAnswer = Math.min(...answers.map((e) => e.responseEnd));
    const drawn = (c) => Number(c.querySelector(".uplot-host")?.getAttribute("data-drawn-at") ?? -1) >= firstAnswer;
    if (inView.length > 0 && answers.length >= inView.length && inView.every(drawn)) {
      resolve(performance.now());
      return;
    }
    requestAnimationFrame(check);
  }
  check();
})`;

/** Navigation to the charts view of `runs` runs until the cards in view are drawn: ms since navigation start. */
export async function chartsViewInteractive(
  page: Page,
  url: string,
  experimentId: string,
  runs: number,
): Promise<number> {
  await page.goto(`${url}/runs?e=${experimentId}&tab=charts&top=${runs}`);
  return (await page.evaluate(CARDS_IN_VIEW_DRAWN)) as number;
}

/** Where the last navigation's time went: each API request's start and end (ms since navigation start) and size. */
export async function chartsViewRequests(page: Page): Promise<string> {
  return (await page.evaluate(`performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("/api/"))
    .map((e) => e.name.split("/api/2.0/tracker/").pop().split("?")[0] + " " + Math.round(e.startTime) + "-" + Math.round(e.responseEnd) + " ms " + Math.round(e.transferSize / 1024) + " KB")
    .join("; ")`)) as string;
}

const SCROLL_STEP_PX = 40;
/** In-page: scrolls the window top to bottom, SCROLL_STEP_PX a frame; every frame's duration. */
const SCROLL_CARDS = `new Promise((resolve) => {
  window.scrollTo(0, 0);
  const frames = [];
  let last = performance.now();
  function step() {
    const now = performance.now();
    frames.push(now - last);
    last = now;
    const el = document.scrollingElement;
    if (el.scrollTop + window.innerHeight >= el.scrollHeight - 1) { resolve(frames.slice(1)); return; }
    window.scrollBy(0, ${SCROLL_STEP_PX});
    requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
})`;

/** The frame durations of a scroll through every card (each drawn lazily on the way). */
export async function chartsViewScroll(page: Page): Promise<number[]> {
  return (await page.evaluate(SCROLL_CARDS)) as number[];
}

/** Has every page of `context` record its long tasks (over 50 ms of main thread) from the start. */
export async function recordLongTasks(context: BrowserContext): Promise<void> {
  await context.addInitScript(`window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
      .observe({ type: "longtask", buffered: true });`);
}

/** The last navigation's main-thread picture: when its cards in view were first and last drawn, and its long tasks. */
export async function chartsViewProfile(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const drawn = [...document.querySelectorAll("article.chart-card")]
      .filter((c) => c.getBoundingClientRect().top < window.innerHeight)
      .map((c) => Number(c.querySelector(".uplot-host")?.getAttribute("data-drawn-at") ?? NaN))
      .filter((t) => !Number.isNaN(t));
    const tasks = window.__longTasks ?? [];
    const total = tasks.reduce((a, [, d]) => a + d, 0);
    return "cards in view drawn " + Math.round(Math.min(...drawn)) + "-" + Math.round(Math.max(...drawn)) + " ms (" + drawn.length + "); long tasks: " + tasks.length + ", " + Math.round(total) + " ms in all (" + tasks.map(([s, d]) => Math.round(s) + "+" + Math.round(d)).join(" ") + ")";
  })()`)) as string;
}

/**
 * The server's side of a card: metrics/get-history-bulk-interval for every run and one metric with
 * `maxResults` per run, as the browser asks for it (gzip), timed until the whole body is in:
 * `times` one after the other, then all metrics at once. Returns a line to print.
 */
export async function cardRequestTimes(
  url: string,
  runIds: readonly string[],
  metrics: number,
  maxResults: number,
  times = 10,
): Promise<string> {
  const one = async (key: string) => {
    const query = new URLSearchParams([
      ...runIds.map((id) => ["run_ids", id]),
      ["metric_key", key],
      ["max_results", String(maxResults)],
    ]);
    const t = performance.now();
    const response = await fetch(`${url}/api/2.0/tracker/metrics/get-history-bulk-interval?${query}`, {
      headers: { "Accept-Encoding": "gzip" },
    });
    if (!response.ok) throw new Error(`bulk-interval answered ${response.status}: ${await response.text()}`);
    const bytes = (await response.arrayBuffer()).byteLength;
    return { ms: performance.now() - t, bytes };
  };
  await one("m0");
  const alone: number[] = [];
  for (let i = 0; i < times; i++) alone.push((await one(`m${i % metrics}`)).ms);
  const t = performance.now();
  const together = await Promise.all(Array.from({ length: metrics }, (_, m) => one(`m${m}`)));
  const all = performance.now() - t;
  return `one card's request (${runIds.length} runs, ${maxResults} points a run, ${Math.round(together[0]!.bytes / 1024)} KB decoded): alone median ${median(alone).toFixed(0)} ms; ${metrics} at once ${all.toFixed(0)} ms for all`;
}

/** The `max_results` of the last navigation's history requests (what the UI asked per run). */
export async function askedPointsPerRun(page: Page): Promise<number> {
  const asked = (await page.evaluate(`performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("get-history-bulk-interval"))
    .map((e) => new URL(e.name).searchParams.get("max_results"))
    .pop()`)) as string | null | undefined;
  if (!asked) throw new Error("the charts view asked for no metric history");
  return Number(asked);
}
