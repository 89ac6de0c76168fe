import { useTestServer } from "@tracker/testing";
import { TrackerClient } from "@tracker-ml/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type WatchedPage, webDir, requireBuiltUi, saveScreenshot } from "./browser";
import { seed, type Seeded } from "./seed";

const SWEEP_RUNS = 25;
const LONG_METRIC = "val_loss_per_epoch_weighted";

interface Sweep {
  experimentId: string;
  runIds: string[];
}

/** A second experiment: 25 runs with string params (model, optimizer), a long metric name and histories. */
async function seedSweep(baseUrl: string): Promise<Sweep> {
  const client = new TrackerClient({ baseUrl });
  const experimentId = await client.createExperiment("lr-sweep");
  const runIds: string[] = [];
  const t0 = Date.UTC(2026, 10, 21, 9, 0, 0);
  for (let i = 0; i < SWEEP_RUNS; i++) {
    const run = await client.createRun(experimentId, {
      runName: `sweep-${String(i).padStart(2, "0")}`,
      // Newest first in the table: sweep-00 on top.
      startTime: t0 - i * 1000,
    });
    const id = run.info.run_id;
    runIds.push(id);
    const metrics = [];
    for (let step = 0; step < 20; step++) {
      const loss = (1 + i / 10) * Math.exp(-step / 6) + 0.05;
      metrics.push({ key: "loss", value: loss, step, timestamp: t0 + step * 1000 });
      metrics.push({ key: LONG_METRIC, value: loss * 1.1, step, timestamp: t0 + step * 1000 });
    }
    metrics.push({ key: "acc", value: 0.5 + i / 60, step: 0, timestamp: t0 });
    metrics.push({ key: "grad_norm", value: -0.00081 * (i + 1), step: 0, timestamp: t0 });
    for (const extra of ["f1", "precision", "recall", "auc", "throughput"])
      metrics.push({ key: extra, value: i * 1.5, step: 0, timestamp: t0 });
    await client.logBatch(id, {
      metrics,
      params: {
        lr: 10 ** -(1 + (i % 4)),
        model: ["mlp", "cnn", "transformer"][i % 3]!,
        optimizer: ["adam", "sgd"][i % 2]!,
        batch_size: 32 * (1 + (i % 3)),
      },
    });
    await client.setTerminated(id, "FINISHED", t0 + 30_000);
  }
  return { experimentId, runIds };
}

describe("web UI after a day of use (issue 31)", () => {
  beforeAll(() => {
    requireBuiltUi();
  });
  const server = useTestServer("pglite", { webDir });
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let data: Seeded;
  let sweep: Sweep;
  /** Every console message, whatever its level (Chromium's interventions are warnings). */
  const consoleLines: string[] = [];

  const open = async (
    pathname: string,
    options: { scheme?: "light" | "dark"; width?: number } = {},
  ): Promise<WatchedPage> => {
    const watched = await openPage(browser, options.scheme ?? "light");
    if (options.width) await watched.page.setViewportSize({ width: options.width, height: 844 });
    watched.page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    await watched.page.goto(`${server.url}${pathname}`);
    return watched;
  };
  const shot = (page: Page, name: string) => saveScreenshot(page, name);
  const compareUrl = (ids: readonly string[], extra = "") => `/compare?runs=${ids.join(",")}${extra}`;

  beforeAll(async () => {
    data = await seed(server.url, "tracker");
    sweep = await seedSweep(server.url);
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
  });

  it("compares 25 runs: every chart draws, colours differ, the scatter has numbers, string params are categorical axes", async () => {
    const { page, context, problems } = await open(
      compareUrl(
        sweep.runIds,
        `&charts=loss,${LONG_METRIC}&pc=params.model,params.optimizer,params.lr,metrics.acc,metrics.grad_norm`,
      ),
    );
    const charts = page.getByRole("region", { name: "Metric charts" });
    await charts.getByRole("img", { name: "Chart of loss" }).locator("canvas").waitFor();
    await charts
      .getByRole("img", { name: `Chart of ${LONG_METRIC}` })
      .locator("canvas")
      .waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    // Every run is drawn: the legend lists them in colours no two alike.
    const colours = await page
      .getByRole("group", { name: "Legend" })
      .locator(".swatch")
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    expect(colours).toHaveLength(SWEEP_RUNS);
    expect(new Set(colours).size).toBe(SWEEP_RUNS);

    // The scatter has numbers on both axes.
    await page.getByRole("region", { name: "Scatter plot" }).getByLabel("X").selectOption("params.lr");
    await page.getByRole("region", { name: "Scatter plot" }).getByLabel("Y").selectOption("metrics.acc");
    const scatter = page.getByRole("img", { name: "Scatter of metrics.acc against params.lr" });
    expect(await scatter.locator(".x-ticks text").count()).toBeGreaterThanOrEqual(2);
    expect(await scatter.locator(".y-ticks text").count()).toBeGreaterThanOrEqual(3);
    expect(await scatter.locator("circle").count()).toBe(SWEEP_RUNS);

    // Parallel coordinates: the string params are categorical axes with their values as labels.
    const pc = page.getByRole("img", { name: "Parallel coordinates" });
    const modelAxis = pc.locator('[data-axis="params.model"]');
    expect(
      await modelAxis.locator(".tick-label").evaluateAll((ts) => ts.map((t) => t.firstChild?.textContent)),
    ).toEqual(["cnn", "mlp", "transformer"]);
    expect(
      await pc
        .locator(`[data-axis="params.optimizer"] .tick-label`)
        .evaluateAll((ts) => ts.map((t) => t.firstChild?.textContent)),
    ).toEqual(["adam", "sgd"]);
    const points = await pc.locator("polyline").evaluateAll((els) => els.map((e) => e.getAttribute("points")!));
    expect(points).toHaveLength(SWEEP_RUNS);
    for (const p of points) expect(p.split(" ")).toHaveLength(5);
    // Its labels neither overlap nor leave the plot.
    const boxes = await pc.evaluate((svg) => {
      const frame = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll(".axis-name, .tick-label")].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      });
      return { frame: { left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom }, labels };
    });
    for (const label of boxes.labels) {
      expect(label.left, `${label.text} inside`).toBeGreaterThanOrEqual(boxes.frame.left);
      expect(label.right, `${label.text} inside`).toBeLessThanOrEqual(boxes.frame.right);
      expect(label.bottom, `${label.text} inside`).toBeLessThanOrEqual(boxes.frame.bottom);
    }
    const overlaps = (a: (typeof boxes.labels)[0], b: (typeof boxes.labels)[0]) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const [i, a] of boxes.labels.entries())
      for (const b of boxes.labels.slice(i + 1)) expect(overlaps(a, b), `${a.text} / ${b.text}`).toBe(false);
    await page.getByRole("region", { name: "Scatter plot" }).scrollIntoViewIfNeeded();
    await shot(page, "compare-plots");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps a long error message inside its card", async () => {
    // A run id far too long: the server's message quotes it, an unbroken 300 characters.
    const bad = "ab".repeat(150);
    const { page, context } = await open(`/compare?runs=${bad}`, { width: 390 });
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain(bad);
    const fits = await alert.evaluate((el) => ({
      inside: el.scrollWidth <= el.clientWidth,
      right: el.getBoundingClientRect().right,
      page: document.documentElement.scrollWidth,
    }));
    expect(fits.inside).toBe(true);
    expect(fits.right).toBeLessThanOrEqual(390);
    expect(fits.page).toBeLessThanOrEqual(390);
    await context.close();
  });

  it("runs table: the heading stays on top, names are whole, select and name stay at the left, columns resize", async () => {
    const cols = [
      `metrics.${LONG_METRIC}`,
      "metrics.loss",
      "metrics.acc",
      "metrics.f1",
      "metrics.precision",
      "metrics.recall",
      "metrics.auc",
      "params.optimizer",
      "params.model",
    ];
    const { page, context } = await open(`/runs?e=${sweep.experimentId}&cols=${cols.join(",")}`, {
      width: 1000,
    });
    const table = page.getByTestId("runs-table");
    await table.getByRole("link", { name: "sweep-00" }).waitFor();
    const headerOf = (name: string) =>
      page.getByRole("columnheader").filter({ has: page.getByRole("button", { name, exact: true }) });
    const header = headerOf(`metrics.${LONG_METRIC}`);
    // The whole name shows, and it is in the title too.
    const button = header.getByRole("button");
    expect(await button.getAttribute("title")).toContain(`metrics.${LONG_METRIC}`);
    expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
    // Scrolled down and sideways: the heading is still at the top, select and name at the left.
    const tableBox = (await table.boundingBox())!;
    await table.evaluate((t) => {
      t.scrollTop = 300;
      t.scrollLeft = 600;
    });
    await page.waitForFunction(() => document.querySelector("[data-testid=runs-table]")!.scrollLeft >= 600);
    const nameHeader = (await headerOf("Run name").boundingBox())!;
    expect(Math.abs(nameHeader.y - tableBox.y)).toBeLessThanOrEqual(2);
    expect(Math.abs(nameHeader.x - (tableBox.x + 36 + 1))).toBeLessThanOrEqual(2);
    const headerBox = (await headerOf("metrics.loss").boundingBox())!;
    expect(Math.abs(headerBox.y - tableBox.y)).toBeLessThanOrEqual(2);
    const visibleRow = table.locator("[role=row][data-run-id]").nth(12);
    const nameCell = (await visibleRow.getByRole("cell").nth(1).boundingBox())!;
    expect(Math.abs(nameCell.x - (tableBox.x + 36 + 1))).toBeLessThanOrEqual(2);
    const checkbox = (await visibleRow.getByRole("checkbox").boundingBox())!;
    expect(checkbox.x).toBeGreaterThanOrEqual(tableBox.x);
    expect(checkbox.x).toBeLessThan(tableBox.x + 36);
    await shot(page, "runs-scrolled");
    // A column resizes from the keyboard (and by dragging its edge).
    await table.evaluate((t) => {
      t.scrollTop = 0;
      t.scrollLeft = 0;
    });
    const before = (await header.boundingBox())!.width;
    await page.getByRole("separator", { name: `Resize metrics.${LONG_METRIC}` }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await header.boundingBox())!.width).toBe(before + 20);
    const edge = (await page.getByRole("separator", { name: "Resize metrics.loss" }).boundingBox())!;
    const lossBefore = (await headerOf("metrics.loss").boundingBox())!.width;
    await page.mouse.move(edge.x + 3, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + 63, edge.y + edge.height / 2, { steps: 4 });
    await page.mouse.up();
    const lossAfter = (await headerOf("metrics.loss").boundingBox())!.width;
    expect(lossAfter - lossBefore).toBeGreaterThan(50);
    await context.close();
  });

  it("keyboard: a ticked check box keeps focus, arrows move between rows, Esc closes the picker; disabled buttons look it", async () => {
    const { page, context } = await open(`/runs?e=${sweep.experimentId}`);
    const table = page.getByTestId("runs-table");
    const first = table.getByRole("checkbox", { name: "Select run sweep-00" });
    await first.waitFor();
    // Nothing selected: Compare is disabled and looks it.
    const compare = page.getByRole("button", { name: /^Compare/ });
    expect(await compare.isDisabled()).toBe(true);
    expect(Number(await compare.evaluate((b) => getComputedStyle(b).opacity))).toBeLessThan(0.7);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "<body>");
    await first.focus();
    await page.keyboard.press("Space");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("sel") !== null);
    expect(await first.isChecked()).toBe(true);
    expect(await focused()).toBe("Select run sweep-00");
    expect(await compare.isDisabled()).toBe(false);
    expect(Number(await compare.evaluate((b) => getComputedStyle(b).opacity))).toBe(1);
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe("Select run sweep-01");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => (new URL(location.href).searchParams.get("sel") ?? "").split(",").length === 2);
    expect(await focused()).toBe("Select run sweep-01");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    expect(await focused()).toBe("Select run sweep-02");
    // Far down the windowed table: the row is scrolled in and focused.
    for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowDown");
    await expect.poll(focused).toBe("Select run sweep-22");
    // The same column of the next row: from a run's link to the next run's link.
    await table.getByRole("link", { name: "sweep-03" }).focus();
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("sweep-04");

    const columnsButton = page.getByRole("button", { name: /^Columns/ });
    await columnsButton.click();
    const picker = page.getByRole("group", { name: "Columns" });
    await picker.getByLabel("Find a column").focus();
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "detached" });
    expect(await columnsButton.evaluate((b) => b === document.activeElement)).toBe(true);
    await shot(page, "runs-keyboard");
    await context.close();
  });

  it("pans a chart with shift+drag without 'Unable to preventDefault inside passive event listener' warnings", async () => {
    consoleLines.length = 0;
    const { page, context } = await open(compareUrl(sweep.runIds.slice(0, 3), "&charts=loss"));
    const over = page.getByRole("img", { name: "Chart of loss" }).locator(".u-over");
    await over.waitFor();
    const box = (await over.boundingBox())!;
    // Zoom in first (a drag), then pan (shift+drag), then a middle-button pan.
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => new URL(location.href).searchParams.has("zoom"));
    const zoomed = await page.evaluate(() => new URL(location.href).searchParams.get("zoom"));
    await page.keyboard.down("Shift");
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    await page.waitForFunction((before) => new URL(location.href).searchParams.get("zoom") !== before, zoomed);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down({ button: "middle" });
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up({ button: "middle" });
    expect(consoleLines.filter((l) => /passive event listener/i.test(l))).toEqual([]);
    await context.close();
  });

  it("dark mode: the chart's axis numbers are light on the dark background", async () => {
    const { page, context } = await open(compareUrl(sweep.runIds.slice(0, 5), "&charts=loss"), { scheme: "dark" });
    const host = page.getByRole("img", { name: "Chart of loss" });
    await host.locator("canvas").waitFor();
    await page.waitForFunction(() => document.querySelector(".uplot-host")?.hasAttribute("data-drawn-at"));
    // The left axis' strip of the canvas (the y numbers): how many of its pixels are light.
    const light = await host.locator("canvas").evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext("2d")!;
      const strip = ctx.getImageData(0, 0, Math.round(canvas.width * 0.1), canvas.height).data;
      let count = 0;
      for (let i = 0; i < strip.length; i += 4) {
        const [r, g, b, a] = [strip[i]!, strip[i + 1]!, strip[i + 2]!, strip[i + 3]!];
        if (a > 128 && 0.2126 * r + 0.7152 * g + 0.0722 * b > 150) count++;
      }
      return count;
    });
    expect(light).toBeGreaterThan(50);
    await host.scrollIntoViewIfNeeded();
    await shot(page, "compare-dark");
    await context.close();
  });

  it("at 390 px the run, compare, model and experiments pages fit the screen; numbers never break", async () => {
    const pages: Array<[string, string, (page: Page) => Promise<void>]> = [
      [
        `/runs/${data.best}`,
        "run-390",
        (p) => p.getByRole("region", { name: "Artifacts" }).getByRole("button", { name: "metrics.json" }).waitFor(),
      ],
      [
        compareUrl(sweep.runIds.slice(0, 6), "&charts=loss"),
        "compare-390",
        (p) => p.getByRole("img", { name: "Chart of loss" }).locator("canvas").waitFor(),
      ],
      [`/models/${data.modelName}`, "model-390", (p) => p.getByRole("link", { name: "Version 2" }).waitFor()],
      ["/experiments", "experiments-390", (p) => p.getByRole("link", { name: "lr-sweep" }).waitFor()],
      [
        `/runs?e=${sweep.experimentId}`,
        "runs-390",
        (p) => p.getByTestId("runs-table").getByRole("link", { name: "sweep-00" }).waitFor(),
      ],
    ];
    for (const [pathname, name, ready] of pages) {
      for (const scheme of ["light", "dark"] as const) {
        const { page, context } = await open(pathname, { width: 390, scheme });
        await ready(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        // The outermost elements reaching past the right edge, to say what is too wide.
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("body *")]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= window.innerWidth + 0.5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`),
        );
        expect(width, `${pathname} is ${width} px wide: ${wide.join(", ")}`).toBeLessThanOrEqual(390);
        // Buttons are on screen (or inside a box that scrolls sideways on its own).
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll("button")]
            .filter((b) => b.closest(".table-scroll, .runs-table, .plot-scroll") === null)
            .filter((b) => b.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((b) => b.textContent),
        );
        expect(cut, `${pathname}: buttons past the right edge`).toEqual([]);
        // A number stays on one line.
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll("td.num, td .num")]
            .filter((td) => {
              const range = document.createRange();
              range.selectNodeContents(td);
              return range.getClientRects().length > 1;
            })
            .map((td) => td.textContent),
        );
        expect(broken, `${pathname}: numbers on two lines`).toEqual([]);
        await shot(page, scheme === "dark" ? `${name}-dark` : name);
        await context.close();
      }
    }
  });

  it("smaller things: names not ids, Markdown excerpts, an empty state, number format, 'Move to', Experiment column, artifact in the URL", async () => {
    const client = new TrackerClient({ baseUrl: server.url });
    await client.updateRegisteredModel(data.modelName, "## Fraud model\n\nDetects **fraud** in `payments`.");
    const { page, context } = await open("/models");
    const description = page.getByRole("row").filter({ hasText: data.modelName }).locator("td.excerpt");
    await description.getByText("Fraud model Detects fraud in payments.").waitFor();
    expect(await description.textContent()).not.toMatch(/[#*`]/);

    // The run page names its experiment and parent run; the model pages their source runs.
    const child = data.runIds["best-net-fold-1"]!;
    await page.goto(`${server.url}/runs/${child}`);
    await page.getByRole("link", { name: "← Runs of fraud-detection" }).waitFor();
    await page.locator("dl.meta").getByRole("link", { name: "best-net", exact: true }).waitFor();
    await page.goto(`${server.url}/models/${data.modelName}`);
    await page.getByRole("link", { name: "best-net", exact: true }).waitFor();
    await page.getByRole("link", { name: "deeper-net", exact: true }).waitFor();
    // "Move to" offers the next stage, not the current one.
    await page.getByRole("link", { name: "Version 1" }).click();
    await page.getByTestId("stage").filter({ hasText: "Production" }).waitFor();
    expect(await page.getByLabel("Move to").inputValue()).toBe("Archived");
    await page.getByRole("link", { name: "← Model fraud-model" }).click();
    await page.getByRole("link", { name: "Version 2" }).click();
    await page.getByTestId("stage").filter({ hasText: "None" }).waitFor();
    expect(await page.getByLabel("Move to").inputValue()).toBe("Staging");

    // Exponent form without trailing zeros.
    await page.goto(`${server.url}/runs/${sweep.runIds[0]}`);
    const gradNorm = page.getByRole("region", { name: "Metrics" }).getByRole("row").filter({ hasText: "grad_norm" });
    await gradNorm.getByRole("cell", { name: "-8.1e-4" }).first().waitFor();

    // Several experiments: an Experiment column with their names.
    await page.goto(`${server.url}/runs?e=${data.experimentId},${sweep.experimentId}`);
    const table = page.getByTestId("runs-table");
    await table.getByRole("link", { name: "sweep-00" }).waitFor();
    await page.getByRole("columnheader").filter({ hasText: "Experiment" }).first().waitFor();
    const sweepRow = table.locator(`[role=row][data-run-id="${sweep.runIds[0]}"]`);
    await sweepRow.getByText("lr-sweep", { exact: true }).waitFor();
    const bestRow = table.locator(`[role=row][data-run-id="${data.best}"]`);
    await bestRow.getByText("fraud-detection", { exact: true }).waitFor();

    // A filter that matches nothing says so and offers the way back.
    await page.getByLabel("Filter runs").fill("metrics.acc > 100");
    await page.getByLabel("Filter runs").press("Escape");
    await page.getByLabel("Filter runs").press("Enter");
    const empty = page.getByRole("status").filter({ hasText: "No run matches this filter" });
    await empty.waitFor();
    await shot(page, "runs-empty");
    await empty.getByRole("button", { name: "Clear the filter" }).click();
    await table.getByRole("link", { name: "sweep-00" }).waitFor();

    // The chosen artifact is in the URL: a reload (or a shared link) opens it again, folders expanded.
    await page.goto(`${server.url}/runs/${data.best}`);
    const artifacts = page.getByRole("region", { name: "Artifacts" });
    await artifacts.getByRole("button", { name: "metrics.json" }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("artifact") === "metrics.json");
    await page.goto(`${server.url}/runs/${data.best}?artifact=model%2FMLmodel`);
    // (shown as a model: the flavour's table)
    await artifacts
      .getByRole("table", { name: "Flavor python_function" })
      .getByRole("rowheader", { name: "loader_module" })
      .waitFor();
    expect(await artifacts.getByRole("button", { name: "MLmodel" }).getAttribute("aria-current")).toBe("true");
    await context.close();
  });

  it("serves scripts, styles and JSON compressed; hashed assets cached for a year, the page revalidated", async () => {
    const { page, context } = await open("/experiments");
    const seen: Array<{ url: string; type: string; encoding: string; cache: string }> = [];
    page.on("response", async (r) => {
      const headers = await r.allHeaders();
      seen.push({
        url: r.url(),
        type: headers["content-type"] ?? "",
        encoding: headers["content-encoding"] ?? "",
        cache: headers["cache-control"] ?? "",
      });
    });
    await page.reload();
    await page.goto(`${server.url}/runs?e=${sweep.experimentId}&cols=metrics.loss,metrics.acc,params.lr`);
    await page.getByTestId("runs-table").getByRole("link", { name: "sweep-00" }).waitFor();
    await expect.poll(() => seen.some((r) => /runs\/search/.test(r.url))).toBe(true);
    const script = seen.find((r) => /\/assets\/index-[\w-]+\.js$/.test(r.url));
    const style = seen.find((r) => /\/assets\/index-[\w-]+\.css$/.test(r.url));
    const json = seen.find((r) => /runs\/search/.test(r.url));
    const html = seen.find((r) => r.type.startsWith("text/html"));
    expect(script?.encoding).toMatch(/^(br|gzip)$/);
    expect(script?.cache).toMatch(/max-age=31536000/);
    expect(style?.encoding).toMatch(/^(br|gzip)$/);
    expect(json?.encoding).toMatch(/^(br|gzip)$/);
    expect(html?.cache).toBe("no-cache");
    await context.close();
  });
});
