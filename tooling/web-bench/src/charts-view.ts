// The runs page's charts view under load (issue 31): 100 runs x 8 metrics of 1,000 steps each.
// Measures navigation to every card in view drawn (interactive), and the frames of a scroll through
// all cards (cards fetch and draw lazily as they come into view).
import type { TrackerClient } from "@tracker-ml/client";
import type { Page } from "playwright-core";
import { pool } from "./seed.js";

export interface ChartsViewSize {
  runs: number;
  metrics: number;
  steps: number;
}

export const CHARTS_VIEW_SIZE: ChartsViewSize = { runs: 100, metrics: 8, steps: 1000 };
export const CHARTS_VIEW_QUICK: ChartsViewSize = { runs: 20, metrics: 4, steps: 200 };

/** An experiment of `runs` runs, each with `metrics` metrics (m0 … m7) of `steps` steps; its id. */
export async function seedChartsView(client: TrackerClient, size: ChartsViewSize): Promise<string> {
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
  return experimentId;
}

/** In-page: resolves with performance.now() once every card within the viewport has drawn its chart. */
const CARDS_IN_VIEW_DRAWN = `new Promise((resolve) => {
  function check() {
    const cards = [...document.querySelectorAll("article.chart-card")];
    const inView = cards.filter((c) => c.getBoundingClientRect().top < window.innerHeight);
    if (inView.length > 0 && inView.every((c) => c.querySelector(".uplot-host[data-drawn-at]"))) {
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
