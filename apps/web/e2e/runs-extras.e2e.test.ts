// Issue 31's "Missing" items besides the charts view and grouping, in Chromium against a real
// server: select-all, pinned and saved column widths; the CSV download of every matching run;
// datasets on the run page, as a column and as a filter; the image grid; the MLmodel view; the
// theme menu; names on the logged-model page. Screenshots in light, dark and at 390 px. The artifact
// previews (images, the MLmodel view) run with the artifacts in S3 too when TEST_S3_URL is set.
import fs from "node:fs";
import { artifactStoreConfig, testArtifactStores, useTestServer } from "@tracker/testing";
import { TrackerClient } from "@tracker-ml/client";
import Papa from "papaparse";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, webDir, requireBuiltUi, openAt, saveScreenshot } from "./browser";

/** More runs than the table's first page (200): the CSV must page through the API for the rest. */
const MANY_RUNS = 230;
const TRICKY_NAME = 'say "hi", then\nleave';
const IMAGES = 24;

const MLMODEL = `artifact_path: model
flavors:
  python_function:
    env:
      conda: conda.yaml
      virtualenv: python_env.yaml
    loader_module: mlflow.sklearn
    model_path: model.pkl
    predict_fn: predict
    python_version: 3.11.9
  sklearn:
    code: null
    pickled_model: model.pkl
    serialization_format: cloudpickle
    sklearn_version: 1.5.2
mlflow_version: 2.17.0
model_size_bytes: 1840
model_uuid: 7d1c0b3f6a0e4b6c9f1e2d3c4b5a6978
run_id: RUN_ID
saved_input_example_info:
  artifact_path: input_example.json
  pandas_orient: split
  serving_input_path: serving_input_example.json
  type: dataframe
signature:
  inputs: '[{"type": "double", "name": "amount", "required": true}, {"type": "string", "name": "country", "required": true}, {"type": "long", "name": "account_age_days", "required": false}]'
  outputs: '[{"type": "tensor", "tensor-spec": {"dtype": "float64", "shape": [-1]}}]'
  params: null
utc_time_created: '2026-11-20 09:00:00.000000'
`;

interface Data {
  experimentId: string;
  manyId: string;
  runIds: string[];
  imageRun: string;
  modelId: string;
}

async function seedAll(baseUrl: string, pngs: Uint8Array[]): Promise<Data> {
  const client = new TrackerClient({ baseUrl });
  const experimentId = await client.createExperiment("churn-model");
  const runIds: string[] = [];
  const t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  const train = (v: number) => ({
    name: `customers-train-v${v}`,
    digest: v === 1 ? "3f2a91c0d4e5" : "9b7e11aa0c42",
    source_type: "local",
    source: JSON.stringify({ uri: `/data/customers-v${v}.parquet` }),
  });
  const holdout = { name: "customers-holdout", digest: "c0ffee123456", source_type: "s3", source: "s3://ml/holdout" };
  for (let i = 0; i < 8; i++) {
    const run = await client.createRun(experimentId, {
      runName: `gbm-${String(i).padStart(2, "0")}-with-a-long-descriptive-name`,
      startTime: t0 - i * 1000,
      tags: { "tracker.user": "carol", "tracker.source.name": "train_churn.py" },
    });
    const id = run.info.run_id;
    runIds.push(id);
    await client.logBatch(id, {
      metrics: ["auc", "f1", "precision", "recall", "log_loss", "brier", "accuracy", "lift"].map((key, k) => ({
        key,
        value: Number((0.6 + (i + k) / 40).toFixed(4)),
      })),
      params: { max_depth: 3 + (i % 4), learning_rate: 0.05 * (1 + (i % 3)), booster: ["gbtree", "dart"][i % 2]! },
    });
    await client.logInputs(id, [train(i < 4 ? 1 : 2)], "training");
    await client.logInputs(id, [holdout], "validation");
    await client.setTerminated(id, "FINISHED", t0 - i * 1000 + 60_000);
  }
  const imageRun = runIds[0]!;
  for (let i = 0; i < IMAGES; i++) {
    const bytes = pngs[i % pngs.length]!;
    await client.uploadArtifact(imageRun, bytes, `plots/epoch-${String(i).padStart(2, "0")}.png`);
  }
  await client.uploadArtifact(
    imageRun,
    new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#2a6"/><text x="10" y="45" fill="#fff">ROC</text></svg>`,
    ),
    "roc.svg",
  );
  const bytes = (text: string) => new TextEncoder().encode(text);
  await client.uploadArtifact(imageRun, bytes(MLMODEL.replace("RUN_ID", imageRun)), "model/MLmodel");
  await client.uploadArtifact(
    imageRun,
    bytes(
      JSON.stringify({
        columns: ["amount", "country", "account_age_days"],
        data: [
          [129.5, "DE", 412],
          [8.99, "FR", 3],
        ],
      }),
    ),
    "model/input_example.json",
  );
  await client.uploadArtifact(imageRun, bytes("numpy==2.1.0\nscikit-learn==1.5.2\n"), "model/requirements.txt");

  const model = await client.createLoggedModel(experimentId, {
    name: "churn-gbm",
    modelType: "sklearn",
    sourceRunId: imageRun,
  });

  // Many runs: more than the table loads at first.
  const manyId = await client.createExperiment("churn-sweep");
  const names = Array.from({ length: MANY_RUNS }, (_, i) =>
    i === 7 ? TRICKY_NAME : `sweep-${String(i).padStart(3, "0")}`,
  );
  for (let start = 0; start < MANY_RUNS; start += 10) {
    await Promise.all(
      names.slice(start, start + 10).map(async (name, k) => {
        const i = start + k;
        // One request a run (tags come with it): seeding stays short on a loaded machine.
        await client.createRun(manyId, {
          runName: name,
          startTime: t0 + i * 1000,
          tags: { fold: String(i % 5), note: i % 2 === 0 ? "-0.001" : "=1+1" },
        });
      }),
    );
  }
  return { experimentId, manyId, runIds, imageRun, modelId: model.info.model_id };
}

/** Three small PNG charts drawn by the browser's canvas (the test has no image files of its own). */
/** The names of the image grid's thumbnails on screen that have not drawn their image yet. */
function thumbnailsLoading(grid: Locator): Promise<string[]> {
  return grid.locator("button.thumb").evaluateAll((buttons) =>
    buttons
      .filter((b) => {
        const box = b.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight;
      })
      .filter((b) => {
        const img = b.querySelector("img");
        return !(img?.complete && img.naturalWidth > 0);
      })
      .map((b) => b.getAttribute("aria-label") ?? "?"),
  );
}

async function drawPngs(page: Page): Promise<Uint8Array[]> {
  const encoded = await page.evaluate(`(() => {
    const out = [];
    for (const hue of [210, 20, 140]) {
      const c = document.createElement("canvas");
      c.width = 240; c.height = 160;
      const g = c.getContext("2d");
      g.fillStyle = "#fff"; g.fillRect(0, 0, 240, 160);
      g.strokeStyle = "hsl(" + hue + ", 70%, 45%)"; g.lineWidth = 3; g.beginPath();
      for (let x = 0; x < 240; x++) g.lineTo(x, 20 + 120 * Math.exp(-x / (40 + hue / 4)) + 6 * Math.sin(x / 7));
      g.stroke();
      out.push(c.toDataURL("image/png").split(",")[1]);
    }
    return out;
  })()`);
  return (encoded as string[]).map((b64) => new Uint8Array(Buffer.from(b64, "base64")));
}

describe.each(testArtifactStores())("web UI: the runs page's missing pieces (issue 31), %s store", (store) => {
  beforeAll(() => {
    requireBuiltUi();
  });
  const server = useTestServer("pglite", { webDir, ...artifactStoreConfig(store) });
  /** The artifact previews run on every store; the rest, and the screenshots, with the local folder only. */
  const preview = it;
  const onFolder = it.skipIf(store !== "folder");
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let data: Data;

  const open = (pathname: string, options: { scheme?: "light" | "dark"; width?: number } = {}) =>
    openAt(browser, `${server.url}${pathname}`, options);
  const shot = async (page: Page, name: string) => {
    if (store === "folder") await saveScreenshot(page, name);
  };
  /** The same page in light, dark and at 390 px (dark, named `-390-dark`), each after `ready` says it is drawn. */
  const shotThree = async (pathname: string, name: string, ready: (page: Page) => Promise<void>) => {
    for (const [suffix, options] of [
      ["", { scheme: "light" as const }],
      ["-dark", { scheme: "dark" as const }],
      ["-390-dark", { scheme: "dark" as const, width: 390 }],
    ] as const) {
      const { page, context, problems } = await open(pathname, options);
      await ready(page);
      if (options.width)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, `${name}${suffix}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  };

  beforeAll(async () => {
    ({ browser, close: closeBrowser } = await launchBrowser());
    const scratch = await browser.newPage();
    const pngs = await drawPngs(scratch);
    await scratch.close();
    data = await seedAll(server.url, pngs);
  });
  afterAll(async () => {
    await closeBrowser?.();
  });

  const runsUrl = (extra = "") =>
    `/runs?e=${data.experimentId}&cols=datasets,metrics.auc,metrics.f1,metrics.precision,metrics.recall,metrics.log_loss,metrics.brier,params.max_depth,params.booster${extra}`;

  onFolder(
    "runs table: select-all ticks every loaded run (a dash for some), select and name stay pinned, dragged widths survive a reload",
    async () => {
      const { page, context, problems } = await open(runsUrl());
      const table = page.getByTestId("runs-table");
      await table.locator("[role=row][data-run-id]").first().waitFor();
      const all = page.getByRole("checkbox", { name: "Select all 8 loaded runs" });
      expect(await all.isChecked()).toBe(false);
      // One run ticked: the heading's box shows a dash.
      await table.locator("[role=row][data-run-id] input[type=checkbox]").first().check();
      expect(await all.evaluate((el: HTMLInputElement) => el.indeterminate)).toBe(true);
      await all.click();
      await page.getByRole("button", { name: "Compare 8" }).waitFor();
      const none = page.getByRole("checkbox", { name: "Deselect all loaded runs" });
      expect(await none.isChecked()).toBe(true);
      expect(await none.evaluate((el: HTMLInputElement) => el.indeterminate)).toBe(false);
      expect(new URL(page.url()).searchParams.get("sel")?.split(",").sort()).toEqual([...data.runIds].sort());
      await none.click();
      await page.getByRole("button", { name: "Compare", exact: true }).waitFor();

      // Scrolled sideways, the check box and the run name stay at the left edge.
      const firstRow = table.locator("[role=row][data-run-id]").first();
      const before = await firstRow.getByRole("link").boundingBox();
      await table.evaluate((el) => el.scrollTo({ left: 900 }));
      await page.waitForFunction(() => document.querySelector("[data-testid=runs-table]")!.scrollLeft > 500);
      const after = await firstRow.getByRole("link").boundingBox();
      expect(after!.x).toBeCloseTo(before!.x, 0);
      const nameHeader = table.getByRole("columnheader", { name: /Run name/ });
      const tableBox = (await table.boundingBox())!;
      expect((await nameHeader.boundingBox())!.x).toBeLessThan(tableBox.x + 60);
      await table.evaluate((el) => el.scrollTo({ left: 0 }));

      // Drag the Status column's edge 80 px wider; the width comes back after a reload.
      const status = table.getByRole("columnheader", { name: /Status/ });
      const widthBefore = (await status.boundingBox())!.width;
      const handle = (await page.getByRole("separator", { name: "Resize Status" }).boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle.x + 40, handle.y + handle.height / 2, { steps: 4 });
      await page.mouse.move(handle.x + 80, handle.y + handle.height / 2, { steps: 4 });
      await page.mouse.up();
      const widthDragged = (await status.boundingBox())!.width;
      expect(widthDragged).toBeGreaterThan(widthBefore + 60);
      await page.reload();
      await table.locator("[role=row][data-run-id]").first().waitFor();
      expect(Math.abs((await status.boundingBox())!.width - widthDragged)).toBeLessThan(2);
      expect(problems).toEqual([]);
      await context.close();

      await shotThree(`${runsUrl()}&sel=${data.runIds.slice(0, 3).join(",")}`, "runs-select-pinned", async (p) => {
        await p.getByTestId("runs-table").locator("[role=row][data-run-id]").nth(7).waitFor();
        await p.getByTestId("runs-table").evaluate((el) => el.scrollTo({ left: 500 }));
      });
    },
  );

  onFolder("downloads every matching run as CSV, in the table's order and columns, quoted correctly", async () => {
    const filter = encodeURIComponent("tags.fold != 'none'");
    const { page, context, problems } = await open(
      `/runs?e=${data.manyId}&cols=tags.fold,tags.note&sort=start&asc=1&filter=${filter}`,
    );
    await page.getByText(/200 runs loaded, scroll for more/).waitFor();
    const searches: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/runs/search-columns")) searches.push(r.postData() ?? "");
    });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("runs-churn-sweep.csv");
    const text = fs.readFileSync((await download.path())!, "utf8");
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const [head, ...rows] = parsed.data;
    expect(head).toEqual([
      "Run ID",
      "Run name",
      "Status",
      "User",
      "Start time",
      "End time",
      "Duration (s)",
      "Source",
      "Parent run ID",
      "tags.fold",
      "tags.note",
    ]);
    // Every run, not the 200 loaded; oldest first as sorted; the tricky name whole.
    expect(rows).toHaveLength(MANY_RUNS);
    expect(rows.map((r) => r[1])).toEqual(
      Array.from({ length: MANY_RUNS }, (_, i) => (i === 7 ? TRICKY_NAME : `sweep-${String(i).padStart(3, "0")}`)),
    );
    expect(rows[229]?.[9]).toBe("4");
    expect(rows[0]?.[10]).toBe("-0.001");
    expect(rows[1]?.[10]).toBe("'=1+1");
    expect(text).toContain(`"say ""hi"", then\nleave"`);
    // The table's filter and order went with the request, a page of 1000 at a time.
    expect(searches.length).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(searches[0]!) as { filter?: string; order_by?: string[]; max_results?: number };
    expect(body).toMatchObject({
      filter: "tags.fold != 'none'",
      order_by: ["attributes.start_time ASC"],
      max_results: 1000,
    });
    await page.getByRole("button", { name: "Download CSV" }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  onFolder("shows a run's datasets on its page and as a column, and filters the table by a dataset", async () => {
    const { page, context, problems } = await open(runsUrl());
    const table = page.getByTestId("runs-table");
    await table.locator("[role=row][data-run-id]").first().waitFor();
    await table.getByRole("columnheader", { name: /Datasets/ }).waitFor();
    // Cells: select, name, status, user, start, duration, source, datasets.
    const firstCell = table.locator(`[data-run-id="${data.runIds[0]}"] [role=cell]`).nth(7);
    await expect.poll(() => firstCell.textContent()).toContain("customers-train-v1 (3f2a91c0) · training");
    expect(await firstCell.textContent()).toContain("customers-holdout (c0ffee12) · validation");
    // The experiment's datasets as a filter: v2 keeps the four later runs.
    const menu = page.getByRole("combobox", { name: "Dataset" });
    const labels = await menu.locator("option").allTextContents();
    expect(labels).toEqual([
      "All datasets",
      "customers-holdout (c0ffee12) · validation",
      "customers-train-v1 (3f2a91c0) · training",
      "customers-train-v2 (9b7e11aa) · training",
    ]);
    await menu.selectOption({ label: "customers-train-v2 (9b7e11aa) · training" });
    await page.getByText("4 runs loaded").waitFor();
    expect(
      await table
        .locator("[role=row][data-run-id]")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run-id"))),
    ).toEqual(data.runIds.slice(4));
    // Kept in the URL: a reload filters the same way.
    await page.reload();
    await page.getByText("4 runs loaded").waitFor();
    expect(problems).toEqual([]);
    await context.close();

    await shotThree(`/runs/${data.runIds[5]}`, "run-datasets", async (p) => {
      const section = p.getByRole("region", { name: "Datasets" });
      await section.getByRole("cell", { name: "customers-train-v2" }).waitFor();
      expect(await section.getByRole("row").count()).toBe(3);
      expect(await section.getByRole("cell", { name: "9b7e11aa0c42" }).count()).toBe(1);
      await section.getByText("validation").waitFor();
      await section.scrollIntoViewIfNeeded();
    });
  });

  preview(
    "shows a run's logged images as a grid of thumbnails loaded as they scroll into view; a click opens one",
    async () => {
      const { page, context, problems } = await open(`/runs/${data.imageRun}`, { width: 1280 });
      const fetched = new Set<string>();
      page.on("request", (r) => {
        const u = new URL(r.url());
        if (u.pathname === "/get-artifact") fetched.add(u.searchParams.get("path") ?? "");
      });
      const grid = page.getByRole("region", { name: "Images" });
      await grid.getByRole("heading", { name: `Images (${IMAGES + 1})` }).waitFor();
      expect(await grid.getByRole("button").count()).toBe(IMAGES + 1);
      // Lazy: with the grid below the fold, few or no thumbnails are fetched yet.
      const early = [...fetched].filter((p) => p.endsWith(".png")).length;
      expect(early).toBeLessThan(IMAGES);
      await expect
        .poll(async () => {
          await grid.getByRole("heading", { name: /Images/ }).scrollIntoViewIfNeeded();
          return grid.locator('img[alt="plots/epoch-00.png"]').count();
        })
        .toBe(1);
      await grid.locator('img[alt="roc.svg"]').waitFor();
      await shot(page, "run-images-grid-partial");
      await grid.getByRole("button", { name: "Open plots/epoch-05.png" }).click();
      const preview = page.getByRole("region", { name: "Preview of plots/epoch-05.png" });
      await preview.getByRole("img", { name: "plots/epoch-05.png" }).waitFor();
      expect(new URL(page.url()).searchParams.get("artifact")).toBe("plots/epoch-05.png");
      expect(problems).toEqual([]);
      await context.close();

      await shotThree(`/runs/${data.imageRun}`, "run-images", async (p) => {
        const g = p.getByRole("region", { name: "Images" });
        await g.getByRole("heading", { name: /Images/ }).waitFor();
        // Charts above may still grow and push the grid down: scroll until the thumbnails show.
        await expect
          .poll(async () => {
            await g.getByRole("heading", { name: /Images/ }).scrollIntoViewIfNeeded();
            return g.locator('img[alt="plots/epoch-02.png"]').count();
          })
          .toBe(1);
        await g.locator('img[alt="plots/epoch-00.png"]').waitFor();
        // Every thumbnail on screen drawn, none still "…" (the screenshot once caught six loading).
        await expect.poll(() => thumbnailsLoading(g)).toEqual([]);
      });
    },
  );

  preview(
    "shows the MLmodel file as a model (flavours, signature, input example), with the raw text a click away",
    async () => {
      const url = `/runs/${data.imageRun}?artifact=model/MLmodel`;
      const { page, context, problems } = await open(url);
      const preview = page.getByRole("region", { name: "Preview of model/MLmodel" });
      await preview.getByRole("table", { name: "Flavor sklearn" }).waitFor();
      expect(await preview.getByRole("table", { name: "Flavor python_function" }).getByRole("row").count()).toBe(5);
      const inputs = preview.getByRole("table", { name: "Signature inputs" });
      expect(await inputs.getByRole("row").allTextContents()).toEqual([
        "NameTypeDetails",
        "amountdoublerequired",
        "countrystringrequired",
        "account_age_dayslongoptional",
      ]);
      expect(
        await preview.getByRole("table", { name: "Signature outputs" }).getByRole("row").nth(1).textContent(),
      ).toBe("(unnamed)tensor of float64shape [-1]");
      const example = preview.getByRole("table", { name: "Input example" });
      await example.getByRole("cell", { name: "129.5" }).waitFor();
      expect(await example.getByRole("row").count()).toBe(3);
      await preview.getByRole("button", { name: "Raw text" }).click();
      expect(await preview.locator("pre").textContent()).toContain("loader_module: mlflow.sklearn");
      await preview.getByRole("button", { name: "Model view" }).click();
      await preview.getByRole("table", { name: "Flavor sklearn" }).waitFor();
      expect(problems).toEqual([]);
      await context.close();

      await shotThree(url, "run-mlmodel", async (p) => {
        const pv = p.getByRole("region", { name: "Preview of model/MLmodel" });
        await pv.getByRole("table", { name: "Input example" }).getByRole("cell", { name: "129.5" }).waitFor();
        // At 390 px the preview takes the whole width, below the tree (not a squeezed second column).
        if ((p.viewportSize()?.width ?? 0) <= 390) expect((await pv.boundingBox())!.width).toBeGreaterThan(300);
        await pv.scrollIntoViewIfNeeded();
      });
    },
  );

  onFolder("switches the theme from the header, remembers it, and applies it before the page is drawn", async () => {
    const { page, context, problems } = await open(`/runs?e=${data.experimentId}`, { scheme: "light" });
    // Recorded when <body> first appears: the theme must already be set then (no flash).
    await context.addInitScript(`new MutationObserver((_, observer) => {
      if (!document.body) return;
      window.__themeAtBody = document.documentElement.getAttribute("data-theme");
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });`);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByTestId("runs-table").locator("[role=row][data-run-id]").first().waitFor();
    expect(await background()).toBe("rgb(255, 255, 255)");
    const menu = page.getByRole("combobox", { name: "Theme" });
    await menu.selectOption("dark");
    expect(await background()).toBe("rgb(15, 19, 24)");
    expect(await page.evaluate(() => localStorage.getItem("tracker.theme"))).toBe("dark");
    await page.reload();
    await page.getByTestId("runs-table").locator("[role=row][data-run-id]").first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __themeAtBody: unknown }).__themeAtBody)).toBe("dark");
    expect(await background()).toBe("rgb(15, 19, 24)");
    expect(await menu.inputValue()).toBe("dark");
    await shot(page, "theme-dark-chosen");
    // Light chosen on a dark OS stays light; "System" follows the OS again.
    await page.emulateMedia({ colorScheme: "dark" });
    await menu.selectOption("light");
    expect(await background()).toBe("rgb(255, 255, 255)");
    await menu.selectOption("system");
    expect(await background()).toBe("rgb(15, 19, 24)");
    expect(await page.evaluate(() => localStorage.getItem("tracker.theme"))).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  onFolder("names the experiment and the source run on the logged-model page", async () => {
    await shotThree(`/logged-models/${data.modelId}`, "logged-model-names", async (p) => {
      await p.getByRole("link", { name: "← Logged models of churn-model" }).waitFor();
      const source = p.getByRole("link", { name: "gbm-00-with-a-long-descriptive-name" });
      await source.waitFor();
      expect(await source.getAttribute("href")).toBe(`/runs/${data.imageRun}`);
    });
  });
});
