import { useTestServer } from "@tracker/testing";
import { TrackerClient } from "@tracker-ml/client";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, webDir, requireBuiltUi, openAt, openPage, saveScreenshot } from "./browser";

const MODELS = ["cnn", "mlp", "tree"] as const;
/** Final accuracy of run i: the groups' means, mins and maxes follow from it. */
const accOf = (i: number) => Number((0.6 + 0.03 * i).toFixed(2));

interface Seeded {
  experimentId: string;
  /** run-0 … run-8, by name. */
  ids: Record<string, string>;
}

/** Nine runs: model = cnn, mlp, tree in turn; acc and loss over 30 steps; run-0 newest (first in the table). */
async function seedCharts(baseUrl: string): Promise<Seeded> {
  const client = new TrackerClient({ baseUrl });
  const experimentId = await client.createExperiment("charts-view");
  const ids: Record<string, string> = {};
  const t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  for (let i = 0; i < 9; i++) {
    const run = await client.createRun(experimentId, { runName: `run-${i}`, startTime: t0 - i * 1000 });
    const id = run.info.run_id;
    ids[`run-${i}`] = id;
    const metrics = [];
    for (let step = 0; step < 30; step++) {
      const acc = step === 29 ? accOf(i) : accOf(i) * (1 - Math.exp(-step / 5));
      metrics.push({ key: "acc", value: acc, step, timestamp: t0 + step * 1000 });
      metrics.push({ key: "loss", value: 1.2 - acc, step, timestamp: t0 + step * 1000 });
    }
    await client.logBatch(id, {
      metrics,
      params: { model: MODELS[i % 3]!, lr: 10 ** -(1 + (i % 3)) },
      tags: { team: i < 5 ? "risk" : "growth" },
    });
    await client.setTerminated(id, "FINISHED", t0 + 40_000);
  }
  return { experimentId, ids };
}

describe("runs page: charts view and grouping (issue 31)", () => {
  beforeAll(() => {
    requireBuiltUi();
  });
  const server = useTestServer("pglite", { webDir });
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let data: Seeded;

  const open = (pathname: string, options: { scheme?: "light" | "dark"; width?: number } = {}) =>
    openAt(browser, `${server.url}${pathname}`, options);
  const shot = (page: Page, name: string) => saveScreenshot(page, name, { top: true });
  const runsUrl = (extra = "") => `/runs?e=${data.experimentId}${extra}`;
  const card = (page: Page, spec: string): Locator => page.locator(`article.chart-card[data-card="${spec}"]`);
  const cardOrder = (page: Page) =>
    page.locator("article.chart-card").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")));
  const barLabels = (bars: Locator) =>
    bars.locator("g[data-bar]").evaluateAll((els) => els.map((e) => e.getAttribute("data-bar")));
  const lineDrawn = (page: Page, key: string) =>
    page
      .getByRole("img", { name: `Line chart of ${key}` })
      .locator("canvas")
      .first()
      .waitFor();
  /** The page's width, naming the outermost elements that reach past the right edge. */
  const overflow = (page: Page) =>
    page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      wide: [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= window.innerWidth + 0.5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`),
    }));

  beforeAll(async () => {
    data = await seedCharts(server.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
  });

  it("draws a line card per metric from one batched request each; cards are added, moved, enlarged, removed; runs hidden and pinned; a reload restores it", async () => {
    const { page, context, problems } = await open(runsUrl());
    await page.getByTestId("runs-table").getByRole("link", { name: "run-0", exact: true }).waitFor();
    const histories: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/metrics/get-history-bulk-interval")) histories.push(r.url());
    });
    await page.getByRole("group", { name: "Runs view" }).getByRole("button", { name: "Charts" }).click();
    await lineDrawn(page, "acc");
    await lineDrawn(page, "loss");
    expect(await cardOrder(page)).toEqual(["line:metrics.acc", "line:metrics.loss"]);
    // One request per card, all nine runs in it.
    expect(histories).toHaveLength(2);
    for (const url of histories) expect(new URL(url).searchParams.getAll("run_ids")).toHaveLength(9);
    const list = page.locator("aside.chart-run-list");
    expect(await list.locator("li").count()).toBe(9);

    // Add a bar card of the latest acc: nine bars, one per run.
    const form = page.getByRole("form", { name: "Add a chart" });
    await form.getByLabel("Chart type", { exact: true }).selectOption("bar");
    await form.getByLabel("Metric", { exact: true }).selectOption("metrics.acc");
    await form.getByRole("button", { name: "Add chart" }).click();
    const bars = card(page, "bar:metrics.acc");
    await bars.getByRole("img", { name: "Bar chart of metrics.acc" }).waitFor();
    expect(await barLabels(bars)).toHaveLength(9);
    expect(await bars.locator('g[data-bar="run-4"]').getAttribute("data-value")).toBe(String(accOf(4)));
    // And a scatter of acc against lr.
    await form.getByLabel("Chart type", { exact: true }).selectOption("scatter");
    await form.getByLabel("X axis", { exact: true }).selectOption("params.lr");
    await form.getByLabel("Y axis", { exact: true }).selectOption("metrics.acc");
    await form.getByRole("button", { name: "Add chart" }).click();
    await card(page, "scatter:params.lr:metrics.acc").getByTestId("scatter").waitFor();
    expect(await cardOrder(page)).toEqual([
      "line:metrics.acc",
      "line:metrics.loss",
      "bar:metrics.acc",
      "scatter:params.lr:metrics.acc",
    ]);

    // Move the bar card up twice, enlarge it, remove the loss card.
    await bars.getByRole("button", { name: "Move acc earlier" }).click();
    await bars.getByRole("button", { name: "Move acc earlier" }).click();
    await bars.getByRole("button", { name: "Enlarge acc" }).click();
    await card(page, "line:metrics.loss").getByRole("button", { name: "Remove loss" }).click();
    expect(await cardOrder(page)).toEqual(["bar*:metrics.acc", "line:metrics.acc", "scatter:params.lr:metrics.acc"]);
    const wide = card(page, "bar*:metrics.acc");
    const [wideBox, lineBox] = [await wide.boundingBox(), await card(page, "line:metrics.acc").boundingBox()];
    expect(wideBox!.width).toBeGreaterThan(lineBox!.width * 1.5);
    // The enlarged bar card is as tall as its bars: no empty band below them (it was ~200 px).
    const barsBox = await wide.getByRole("img", { name: "Bar chart of metrics.acc" }).boundingBox();
    expect(wideBox!.y + wideBox!.height - (barsBox!.y + barsBox!.height)).toBeLessThan(24);

    // Hide run-3: gone from the bars, struck through in the list; pin run-8.
    await list.getByRole("button", { name: "Hide run-3" }).click();
    await wide.locator('g[data-bar="run-3"]').waitFor({ state: "detached" });
    expect(await barLabels(wide)).toHaveLength(8);
    await list.getByRole("button", { name: "Pin run-8" }).click();
    await list.getByRole("button", { name: "Unpin run-8" }).waitFor();
    // A pinned run cannot be hidden, and comes first.
    expect(await list.getByRole("button", { name: "Hide run-8" }).isDisabled()).toBe(true);
    expect(await list.locator("li a").first().textContent()).toBe("run-8");
    const url = new URL(page.url());
    expect(url.searchParams.get("hide")).toBe(data.ids["run-3"]);
    expect(url.searchParams.get("pin")).toBe(data.ids["run-8"]);
    await shot(page, "runs-charts");

    // Reload: the same cards in the same order and size, the same hidden and pinned runs.
    await page.reload();
    await card(page, "bar*:metrics.acc").getByRole("img", { name: "Bar chart of metrics.acc" }).waitFor();
    expect(await cardOrder(page)).toEqual(["bar*:metrics.acc", "line:metrics.acc", "scatter:params.lr:metrics.acc"]);
    expect(await barLabels(card(page, "bar*:metrics.acc"))).toHaveLength(8);
    await list.getByRole("button", { name: "Show run-3" }).waitFor();
    await list.getByRole("button", { name: "Unpin run-8" }).waitFor();

    // Only two runs selected: the pinned run stays with them.
    const selected = `${data.ids["run-0"]},${data.ids["run-1"]}`;
    const withSelection = new URL(page.url());
    withSelection.searchParams.set("sel", selected);
    await page.goto(withSelection.toString());
    await card(page, "bar*:metrics.acc").getByRole("img", { name: "Bar chart of metrics.acc" }).waitFor();
    expect(await list.locator("li a").allTextContents()).toEqual(["run-8", "run-0", "run-1"]);
    expect(await barLabels(card(page, "bar*:metrics.acc"))).toEqual(["run-8", "run-0", "run-1"]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("groups the table by a param: a header per group with its count and min / max / mean of each metric column, collapsible", async () => {
    const { page, context, problems } = await open(runsUrl("&cols=metrics.acc,params.model"));
    const table = page.getByTestId("runs-table");
    await table.getByRole("link", { name: "run-0", exact: true }).waitFor();
    await page.getByLabel("Group by").selectOption("params.model");
    await table.locator('[data-group="cnn"]').waitFor();
    expect(new URL(page.url()).searchParams.get("group")).toBe("params.model");
    const groups = await table.locator("[data-group]").evaluateAll((els) =>
      els.map((e) => ({
        group: e.getAttribute("data-group"),
        count: e.querySelector("[data-testid=group-count]")?.textContent,
        stat: [...e.querySelectorAll(".group-stat")].map((s) => [
          Number(s.getAttribute("data-min")),
          Number(s.getAttribute("data-max")),
          Number(s.getAttribute("data-mean")),
        ]),
      })),
    );
    const expected = MODELS.map((model, m) => {
      const accs = [m, m + 3, m + 6].map(accOf);
      return {
        group: model,
        count: "3 runs",
        stat: [[Math.min(...accs), Math.max(...accs), accs.reduce((a, b) => a + b) / 3]],
      };
    });
    expect(groups.map((g) => ({ ...g, stat: g.stat.map((s) => s.map((v) => Number(v.toFixed(10)))) }))).toEqual(
      expected.map((g) => ({ ...g, stat: g.stat.map((s) => s.map((v) => Number(v.toFixed(10)))) })),
    );
    // Each group's rows follow its header.
    const order = await table
      .locator("[role=row][data-group], [role=row][data-run-id]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-group") ?? e.querySelector("a")?.textContent));
    expect(order).toEqual([
      "cnn",
      "run-0",
      "run-3",
      "run-6",
      "mlp",
      "run-1",
      "run-4",
      "run-7",
      "tree",
      "run-2",
      "run-5",
      "run-8",
    ]);
    await shot(page, "runs-grouped");

    // Collapse mlp: its rows go, the state is in the URL and survives a reload.
    await table.getByRole("button", { name: "Collapse group params.model = mlp" }).click();
    await table.getByRole("link", { name: "run-1", exact: true }).waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.get("fold")).toBe("mlp");
    await page.reload();
    await table.getByRole("button", { name: "Expand group params.model = mlp" }).waitFor();
    expect(await table.getByRole("link", { name: "run-4", exact: true }).count()).toBe(0);
    await table.getByRole("link", { name: "run-2", exact: true }).waitFor();

    // Grouped by a tag: the counts follow the tag.
    await page.getByLabel("Group by").selectOption("tags.team");
    await table.locator('[data-group="growth"]').waitFor();
    expect(await table.locator('[data-group="growth"] [data-testid=group-count]').textContent()).toBe("4 runs");
    expect(await table.locator('[data-group="risk"] [data-testid=group-count]').textContent()).toBe("5 runs");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("on the charts, one series per group: mean bars with min-max whiskers, mean lines with bands", async () => {
    const { page, context, problems } = await open(
      runsUrl("&tab=charts&group=params.model&cards=bar:metrics.acc,line:metrics.acc"),
    );
    const bars = card(page, "bar:metrics.acc");
    await bars.getByRole("img", { name: "Bar chart of metrics.acc" }).waitFor();
    await lineDrawn(page, "acc");
    expect(await barLabels(bars)).toEqual([...MODELS]);
    for (const [m, model] of MODELS.entries()) {
      const mean = ([m, m + 3, m + 6].map(accOf).reduce((a, b) => a + b) / 3).toFixed(10);
      const value = Number(await bars.locator(`g[data-bar="${model}"]`).getAttribute("data-value"));
      expect(value.toFixed(10)).toBe(mean);
    }
    // Each group in its own colour.
    const fills = await bars.locator("g[data-bar] rect").evaluateAll((els) => els.map((e) => e.getAttribute("fill")));
    expect(fills.every((f) => f !== null && /^#|^hsl/.test(f))).toBe(true);
    expect(new Set(fills).size).toBe(3);
    // Three whiskers (min-max), one per group.
    expect(await bars.locator("g[data-bar] g[stroke]").count()).toBe(3);
    await shot(page, "runs-charts-grouped");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("sends the runs requests with the session check, draws each chart once, and the cards below the fold while idle", async () => {
    const { page, context, problems } = await openPage(browser);
    // Only the first row of cards on screen: the line cards are two rows further down.
    await page.setViewportSize({ width: 1280, height: 450 });
    // Every draw of a card's chart (each stamps data-drawn-at), counted by card.
    await page.addInitScript(() => {
      const draws: Record<string, number> = {};
      Object.assign(window, { __draws: draws });
      new MutationObserver((records) => {
        for (const r of records) {
          const spec = (r.target as Element).closest("article.chart-card")?.getAttribute("data-card");
          if (spec) draws[spec] = (draws[spec] ?? 0) + 1;
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-drawn-at"] });
    });
    // The session check answers late: the runs page's requests must not wait for it.
    let sessionReleased = 0;
    await page.route("**/api/2.0/tracker/session", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
      sessionReleased = Date.now();
    });
    const searches: number[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/runs/search-columns")) searches.push(Date.now());
    });
    await page.goto(
      `${server.url}${runsUrl("&tab=charts&cards=bar:metrics.acc,bar:metrics.loss,scatter:params.lr:metrics.acc,parallel:params.lr:metrics.acc,line:metrics.acc,line:metrics.loss")}`,
    );
    await card(page, "bar:metrics.acc").getByRole("img").waitFor();
    // One search, sent before the session's answer, and used by the page.
    expect(searches).toHaveLength(1);
    expect(searches[0]).toBeLessThan(sessionReleased);
    // The line cards below draw without being scrolled to, each once.
    await lineDrawn(page, "acc");
    await lineDrawn(page, "loss");
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const draws = (await page.evaluate(() => (window as unknown as { __draws: Record<string, number> }).__draws)) ?? {};
    expect(draws).toEqual({ "line:metrics.acc": 1, "line:metrics.loss": 1 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("asks for the histories of the line cards on screen before the page renders, and the cards draw from those answers", async () => {
    const { page, context, problems } = await openPage(browser);
    // The session check answers late: the page renders only after it, the first cards' history
    // requests must not wait for that.
    let sessionReleased = 0;
    await page.route("**/api/2.0/tracker/session", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
      sessionReleased = Date.now();
    });
    const histories: { at: number; url: URL }[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/metrics/get-history-bulk-interval"))
        histories.push({ at: Date.now(), url: new URL(r.url()) });
    });
    await page.goto(`${server.url}${runsUrl("&tab=charts&top=20")}`);
    await lineDrawn(page, "acc");
    await lineDrawn(page, "loss");
    // One request per card (acc and loss, the default cards), both sent before the session's
    // answer, for the nine runs listed, and taken by the cards (none sent again).
    expect(histories.map((h) => h.url.searchParams.get("metric_key")).sort()).toEqual(["acc", "loss"]);
    for (const h of histories) {
      expect(h.at).toBeLessThan(sessionReleased);
      expect(h.url.searchParams.getAll("run_ids")).toHaveLength(9);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("light, dark and 390 px: the charts view and the grouped table fit and read", async () => {
    const views: Array<[string, string, (page: Page) => Promise<void>]> = [
      [
        runsUrl("&tab=charts&cards=line:metrics.loss,bar:metrics.acc,parallel:params.lr:params.model:metrics.acc"),
        "runs-charts",
        async (p) => {
          await lineDrawn(p, "loss");
          await card(p, "bar:metrics.acc").scrollIntoViewIfNeeded();
          await card(p, "bar:metrics.acc").getByRole("img").waitFor();
        },
      ],
      [
        runsUrl("&group=params.model&cols=metrics.acc,metrics.loss"),
        "runs-grouped",
        (p) => p.getByTestId("runs-table").locator('[data-group="mlp"]').waitFor(),
      ],
    ];
    for (const [pathname, name, ready] of views) {
      for (const scheme of ["light", "dark"] as const) {
        for (const width of [undefined, 390]) {
          const { page, context, problems } = await open(pathname, { scheme, width });
          await ready(page);
          if (width) {
            const { width: w, wide } = await overflow(page);
            expect(w, `${name} at 390 px is ${w} px wide: ${wide.join(", ")}`).toBeLessThanOrEqual(390);
          }
          // Axis numbers of the canvas charts take the text colour (light on dark).
          if (name === "runs-charts") {
            const colour = await page
              .locator(".chart-card .uplot-host")
              .first()
              .evaluate((e) => getComputedStyle(e).color);
            expect(colour).toBe(scheme === "dark" ? "rgb(230, 233, 237)" : "rgb(27, 31, 36)");
          }
          if (name === "runs-charts" && scheme === "light" && !width) {
            // runs-charts (light, 1280) comes from the first test; here the other variants.
          } else await shot(page, `${name}${width ? "-390" : ""}${scheme === "dark" ? "-dark" : ""}`);
          expect(problems).toEqual([]);
          await context.close();
        }
      }
    }
  });
});
