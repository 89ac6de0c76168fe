// The web UI end to end: a real tracker server (PGlite, and PostgreSQL when TEST_DATABASE_URL is set)
// serving the built UI, data created through the client, Debian's Chromium clicking through it. The
// artifact previews run with the artifacts in S3 too when TEST_S3_URL is set (on PGlite).
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { artifactStoreConfig, storeCasesOnce, testDatabases, useTestServer } from "@tracker/testing";
import { TrackerClient } from "@tracker-ml/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type WatchedPage, screenshots, webDir, requireBuiltUi } from "./browser";
import { seed, XSS_NAME, XSS_SCRIPT, type Seeded } from "./seed";

async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(", ")})`,
    );
  return found;
}

function cspProblems(watched: WatchedPage): string[] {
  return watched.problems.filter((p) => /Content Security Policy|Refused to/i.test(p));
}

async function xssFired(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __xss?: number }).__xss);
}

for (const [kind, store] of storeCasesOnce(testDatabases())) {
  describe(`web UI in Chromium (${kind}, ${store} store)`, () => {
    beforeAll(() => {
      requireBuiltUi();
    });
    const server = useTestServer(kind, { webDir, ...artifactStoreConfig(store) });
    /** The artifact previews run on every store; the rest, and the screenshots, with the local folder only. */
    const preview = it;
    const onFolder = it.skipIf(store !== "folder");
    const screenshotting = kind === "pglite" && store === "folder";
    let browser: Browser;
    let closeBrowser: () => Promise<void>;
    let data: Seeded;
    let watched: WatchedPage;
    let page: Page;
    /** A POST through MLflow's own paths (`/api/2.0/mlflow/...`), as MLflow's Python client sends it. */
    const mlflowPost = async <T>(route: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api/2.0/mlflow/${route}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status, `${route}: ${await res.clone().text()}`).toBe(200);
      return (await res.json()) as T;
    };
    /** A parent run and its child created through MLflow's paths with MLflow's system tags, named `<prefix>-parent` and `<prefix>-child`. */
    const mlflowRunPair = async (prefix: string) => {
      const created = async (tags: Record<string, string>) =>
        (
          await mlflowPost<{ run: { info: { run_id: string } } }>("runs/create", {
            experiment_id: data.experimentId,
            start_time: Date.now(),
            tags: Object.entries(tags).map(([key, value]) => ({ key, value })),
          })
        ).run.info.run_id;
      const source = { "mlflow.user": "alice", "mlflow.source.name": "mlflow_train.py", "mlflow.source.type": "LOCAL" };
      const parent = await created({ "mlflow.runName": `${prefix}-parent`, ...source });
      const child = await created({ "mlflow.runName": `${prefix}-child`, "mlflow.parentRunId": parent, ...source });
      return { parent, child };
    };
    const shot = async (name: string) => {
      if (!screenshotting) return;
      fs.mkdirSync(screenshots, { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: false });
    };
    /** The current page in light, then the same URL in a dark page once `ready` holds there. */
    const shotBoth = async (name: string, ready: () => Promise<void>) => {
      await shot(name);
      if (!screenshotting) return;
      const dark = await openPage(browser, "dark");
      const light = page;
      page = dark.page;
      try {
        await page.goto(light.url());
        await ready();
        await shot(`${name}-dark`);
        expect(cspProblems(dark)).toEqual([]);
      } finally {
        page = light;
        await dark.context.close();
      }
    };
    const go = async (pathname: string) => {
      await page.goto(`${server.url}${pathname}`);
    };

    beforeAll(async () => {
      data = await seed(server.url, "tracker");
      const launched = await launchBrowser();
      browser = launched.browser;
      closeBrowser = launched.close;
      expect(browser.version()).toMatch(/^\d+\./);
      watched = await openPage(browser);
      page = watched.page;
    });
    afterAll(async () => {
      await watched?.context.close();
      await closeBrowser?.();
    });

    onFolder("lists experiments; creates, renames, deletes and restores one", async () => {
      await go("/");
      await page.getByRole("link", { name: "fraud-detection" }).waitFor();
      expect(page.url()).toBe(`${server.url}/experiments`);
      await shot("experiments");
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("New experiment name").fill("scratch");
      await page.getByRole("button", { name: "Create experiment" }).click();
      await page.getByRole("link", { name: "scratch", exact: true }).waitFor();
      await page.getByRole("button", { name: "Rename scratch" }).click();
      await page.getByLabel("Experiment name", { exact: true }).fill("scratch-2");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("link", { name: "scratch-2" }).waitFor();
      // A duplicate name: the server's message, in place.
      await page.getByLabel("New experiment name").fill("fraud-detection");
      await page.getByRole("button", { name: "Create experiment" }).click();
      await page.getByRole("alert").filter({ hasText: "fraud-detection" }).waitFor();

      const row = page.getByRole("row").filter({ hasText: "scratch-2" });
      await row.getByRole("button", { name: "Delete" }).click();
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await page.getByRole("link", { name: "scratch-2" }).waitFor({ state: "detached" });
      await page.getByLabel("Show").selectOption("deleted");
      await page.getByRole("button", { name: "Restore scratch-2" }).click();
      await page.getByLabel("Show").selectOption("active");
      await page.getByRole("link", { name: "scratch-2" }).waitFor();

      // Search by name, kept in the URL.
      await page.getByLabel("Search by name").fill("fraud");
      await page.getByRole("link", { name: "scratch-2" }).waitFor({ state: "detached" });
      expect(new URL(page.url()).searchParams.get("q")).toBe("fraud");
      await page.getByRole("button", { name: "Tags (1)" }).click();
      await page.getByRole("cell", { name: "risk" }).waitFor();
    });

    onFolder(
      "shows the runs table: filter with the server's error, sort, columns, nesting; compares three runs",
      async () => {
        await go(`/runs?e=${data.experimentId}`);
        const table = page.getByTestId("runs-table");
        await table.getByRole("link", { name: "best-net", exact: true }).waitFor();
        // Nested under its parent, and the RUNNING run is there.
        const names = await table.locator("[role=row][data-run-id] a").allTextContents();
        expect(names.indexOf("best-net-fold-1")).toBe(names.indexOf("best-net") + 1);
        await table.getByText("RUNNING").waitFor();
        // The XSS run name is text.
        await table.getByRole("link", { name: XSS_NAME }).waitFor();
        expect(await xssFired(page)).toBeUndefined();

        // A filter the server refuses: its message in place.
        const filter = page.getByLabel("Filter runs");
        await filter.fill("metrics.acc >>> 1");
        await filter.press("Escape");
        await filter.press("Enter");
        await page.getByRole("alert").filter({ hasText: "Search failed" }).waitFor();

        // Completion of a metric key, then a working filter.
        await filter.fill("metrics.a");
        await page.getByRole("option", { name: "metrics.acc" }).waitFor();
        await filter.press("Tab");
        expect(await filter.inputValue()).toBe("metrics.acc");
        await filter.fill("metrics.acc > 0.75 AND params.model IN ('mlp', 'tree')");
        await filter.press("Enter");
        await table.getByRole("link", { name: "baseline" }).waitFor({ state: "detached" });
        await table.getByRole("link", { name: "tiny-lr" }).waitFor({ state: "detached" });

        // Columns: acc and lr, sorted by acc on the server.
        await page.getByRole("button", { name: /^Columns/ }).click();
        await page.getByRole("group", { name: "Columns" }).getByLabel("acc", { exact: true }).check();
        await page.getByRole("group", { name: "Columns" }).getByLabel("lr", { exact: true }).check();
        await page.getByRole("button", { name: /^Columns/ }).click();
        // Only the shown columns are fetched (ext runs/search-columns).
        const projected = page.waitForRequest(
          (r) =>
            r.url().endsWith("/runs/search-columns") &&
            JSON.stringify((r.postDataJSON() as { metric_keys?: string[] }).metric_keys) === '["acc"]',
        );
        await page.getByRole("columnheader", { name: "metrics.acc" }).getByRole("button").click();
        const sent = (await projected).postDataJSON() as { param_keys?: string[]; order_by?: string[] };
        expect(sent.param_keys).toEqual(["lr"]);
        expect(sent.order_by).toEqual(["metrics.acc DESC"]);
        await page.waitForFunction(() => new URL(location.href).searchParams.get("sort") === "metrics.acc");
        await page
          .waitForFunction(
            () => document.querySelector("[role=row][data-run-id] a")?.textContent === "best-net",
            undefined,
            { timeout: 10_000 },
          )
          .catch(async (err: unknown) => {
            const rows = await page
              .locator("[role=row][data-run-id]")
              .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-run-id")}: ${e.textContent}`));
            throw new Error(
              `first row is not best-net after sorting by acc (url ${page.url()}): ${JSON.stringify(rows)}`,
              { cause: err },
            );
          });
        const first = table.locator("[role=row][data-run-id]").first();
        expect(await first.textContent()).toContain("0.93");
        await shot("runs");
        expect(await axeViolations(page)).toEqual([]);

        // Reload keeps every choice (the URL holds them).
        await page.reload();
        await page.waitForFunction(
          () => document.querySelector("[role=row][data-run-id] a")?.textContent === "best-net",
        );
        expect(await page.getByLabel("Filter runs").inputValue()).toContain("metrics.acc > 0.75");

        for (const name of ["best-net", "deeper-net", XSS_NAME]) {
          await table.getByRole("checkbox", { name: `Select run ${name}` }).check();
        }
        await page.getByRole("button", { name: "Compare 3" }).click();
        await page.getByRole("heading", { name: "Compare 3 runs" }).waitFor();
      },
    );

    onFolder(
      "compares runs: differing params highlighted, metrics, charts, scatter and parallel coordinates",
      async () => {
        const lrRow = page.getByRole("region", { name: "Parameters" }).getByRole("row").filter({ hasText: "lr" });
        expect(await lrRow.getAttribute("data-differs")).toBe("true");
        const epochs = page.getByRole("region", { name: "Parameters" }).getByRole("row").filter({ hasText: "epochs" });
        expect(await epochs.getAttribute("data-differs")).toBe("false");
        await page.getByRole("img", { name: "Chart of acc" }).locator("canvas").waitFor();
        await page.getByRole("img", { name: /Scatter of/ }).waitFor();
        expect(await page.getByRole("img", { name: "Parallel coordinates" }).locator("polyline").count()).toBe(3);
        // Drag-zoom on the step axis fetches that step range again from the server.
        const over = page.getByRole("img", { name: "Chart of acc" }).locator(".u-over");
        const box = (await over.boundingBox())!;
        const refetch = page.waitForRequest(
          (r) => r.url().includes("metrics/get-history-bulk-interval") && r.url().includes("start_step="),
        );
        await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
        await refetch;
        await page.getByRole("button", { name: /Reset zoom \(steps/ }).waitFor();
        await page.getByLabel("log scale").check();
        await page.getByLabel("X axis").selectOption("relative");
        await page.waitForFunction(
          () =>
            new URL(location.href).searchParams.get("x") === "relative" &&
            new URL(location.href).searchParams.get("log") === "1",
        );
        await page.getByRole("img", { name: "Chart of acc" }).locator("canvas").waitFor();
        expect(await xssFired(page)).toBeUndefined();
        await shot("compare");
        expect(await axeViolations(page)).toEqual([]);
      },
    );

    onFolder(
      "pans and zooms a chart (keys, buttons, shift+drag): the window is in the URL, survives live refresh and is fetched again",
      async () => {
        const client = new TrackerClient({ baseUrl: server.url });
        const running = data.runIds["still-training"]!;
        const t0 = Date.now() - 60_000;
        await client.logBatch(running, {
          metrics: Array.from({ length: 31 }, (_, step) => ({
            key: "loss",
            value: 1 / (step + 1),
            step,
            timestamp: t0 + step * 1000,
          })),
        });
        const runs = [data.runIds.baseline, data.best, running].join(",");
        const chart = page.getByRole("group", { name: "loss chart" });
        const host = chart.getByRole("img", { name: "Chart of loss" });
        const fetched = (from: number, to: number) =>
          page.waitForRequest(
            (r) =>
              r.url().includes("get-history-bulk-interval") &&
              r.url().includes(`start_step=${from}&`) &&
              r.url().includes(`end_step=${to}&`),
          );
        const window = async () => [
          Number(await host.getAttribute("data-x-min")),
          Number(await host.getAttribute("data-x-max")),
        ];
        const zoomParam = () => page.evaluate(() => new URL(location.href).searchParams.get("zoom"));

        // A zoomed window in the URL is drawn and fetched at full resolution.
        let request = fetched(10, 20);
        await go(`/compare?runs=${runs}&charts=loss&zoom=loss:10:20`);
        await request;
        await chart.getByRole("button", { name: "Reset zoom (steps 10–20)" }).waitFor();
        await expect.poll(window).toEqual([10, 20]);
        // Arrow keys on the focused chart and the pan buttons move it; the new range is fetched.
        request = fetched(12, 23);
        await chart.focus();
        await page.keyboard.press("ArrowRight");
        await request;
        expect(await zoomParam()).toBe("loss:12.5:22.5");
        request = fetched(7, 18);
        await chart.getByRole("button", { name: "Pan left" }).click();
        await chart.getByRole("button", { name: "Pan left" }).click();
        await request;
        await expect.poll(window).toEqual([7.5, 17.5]);
        // Shift+drag pans too: dragging the data left shows later steps.
        const over = host.locator(".u-over");
        const box = (await over.boundingBox())!;
        await page.keyboard.down("Shift");
        await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
        await page.keyboard.up("Shift");
        await page.waitForFunction(() => Number(new URL(location.href).searchParams.get("zoom")?.split(":")[1]) > 11);
        const [from, to] = await window();
        expect(from).toBeGreaterThan(11);
        expect(to - from).toBeCloseTo(10, 6);
        // A live refresh (the RUNNING run logs more) brings new data and keeps the window.
        const refreshed = page.waitForResponse(
          async (r) => r.url().includes("get-history-bulk-interval") && (await r.text()).includes('"step":31'),
          { timeout: 20_000 },
        );
        const drawn = await host.getAttribute("data-drawn-at");
        await client.logMetric(running, "loss", 0.01, { step: 31 });
        await refreshed;
        await expect.poll(() => host.getAttribute("data-drawn-at")).not.toBe(drawn);
        await expect.poll(window).toEqual([from, to]);
        // Reload keeps it; the relative-time axis maps its window to steps for the server.
        await page.reload();
        await expect.poll(window).toEqual([from, to]);
        request = fetched(10, 20);
        await go(`/compare?runs=${runs}&charts=loss&x=relative&zoom=loss:10.2:19.5`);
        await request;
        await expect.poll(window).toEqual([10.2, 19.5]);
        await chart.getByRole("button", { name: /Reset zoom/ }).click();
        await page.waitForFunction(() => !new URL(location.href).searchParams.has("zoom"));
        expect(await axeViolations(page)).toEqual([]);
      },
    );

    preview(
      "shows a run: metadata, Markdown description as safe HTML, params, metrics, tags, artifacts, model versions",
      async () => {
        await go(`/runs/${data.best}`);
        await page.getByRole("heading", { name: /best-net/ }).waitFor();
        await page.getByRole("region", { name: "Description" }).getByRole("heading", { name: "Best so far" }).waitFor();
        expect(await page.getByRole("region", { name: "Description" }).locator("strong").textContent()).toBe("mlp");
        expect(await page.locator(".markdown script, .markdown [onerror]").count()).toBe(0);
        await page.getByRole("region", { name: "Parameters" }).getByRole("cell", { name: "0.003" }).waitFor();
        const acc = page.getByRole("region", { name: "Metrics" }).getByRole("row").filter({ hasText: "acc" }).first();
        await acc.locator("polyline").waitFor();
        expect(await acc.textContent()).toContain("0.93");
        // The tag value with a script is shown as text.
        await page.getByRole("region", { name: "Tags" }).getByText(XSS_SCRIPT).waitFor();
        // Artifacts tree (listing through revision C's artifacts/list).
        const artifacts = page.getByRole("region", { name: "Artifacts" });
        await artifacts.getByRole("button", { name: "metrics.json" }).waitFor();
        await artifacts.getByRole("button", { name: /model\// }).click();
        await artifacts.getByRole("button", { name: "MLmodel" }).waitFor();
        // Previews and downloads through the artifact service's browser endpoint /get-artifact.
        const probe = await fetch(`${server.url}/get-artifact?run_uuid=${data.best}&path=notes.txt`);
        expect(probe.status).toBe(200);
        expect(probe.headers.get("content-type")).toMatch(/^text\/plain/);
        await probe.arrayBuffer();
        await artifacts.getByRole("button", { name: "notes.txt" }).click();
        await artifacts.locator("pre").filter({ hasText: XSS_SCRIPT }).waitFor();
        await artifacts.getByRole("button", { name: "metrics.json" }).click();
        await artifacts.locator("pre").filter({ hasText: '"acc": 0.93' }).waitFor();
        await artifacts.getByRole("button", { name: "predictions.csv" }).click();
        await artifacts.getByRole("cell", { name: "fraud" }).waitFor();
        await artifacts.getByRole("cell", { name: XSS_NAME }).waitFor();
        const download = page.waitForEvent("download");
        await artifacts.getByRole("button", { name: "Download" }).click();
        expect((await download).suggestedFilename()).toBe("predictions.csv");
        await page
          .getByRole("region", { name: "Registered model versions" })
          .getByRole("link", { name: "fraud-model version 2" })
          .waitFor();
        expect(await xssFired(page)).toBeUndefined();
        await shot("run");
        expect(await axeViolations(page)).toEqual([]);

        // Rename, tag add / edit / delete.
        await page.getByRole("button", { name: "Rename run" }).click();
        await page.getByLabel("Run name").fill("best-net-v2");
        await page.getByRole("button", { name: "Save" }).click();
        await page.getByRole("heading", { name: /best-net-v2/ }).waitFor();
        const tags = page.getByRole("region", { name: "Tags" });
        await tags.getByLabel("New tag key").fill("reviewed");
        await tags.getByLabel("New tag value").fill("yes");
        await tags.getByRole("button", { name: "Add tag" }).click();
        await tags.getByRole("cell", { name: "yes", exact: true }).waitFor();
        await tags.getByRole("button", { name: "Edit tag reviewed" }).click();
        await tags.getByLabel("Value of reviewed").fill("twice");
        await tags.getByRole("button", { name: "Save" }).click();
        await tags.getByRole("cell", { name: "twice", exact: true }).waitFor();
        await tags.getByRole("button", { name: "Delete tag reviewed" }).click();
        await tags.getByRole("cell", { name: "twice", exact: true }).waitFor({ state: "detached" });
      },
    );

    onFolder(
      "manages the registry: models, a version's stage transition with archive-existing, description, delete",
      async () => {
        await go("/models");
        await page.getByRole("link", { name: "fraud-model" }).click();
        await page.getByRole("heading", { name: "Model fraud-model" }).waitFor();
        await page.getByRole("link", { name: "Version 2" }).waitFor();
        await shot("model");
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole("link", { name: "Version 2" }).click();
        await page.getByTestId("stage").filter({ hasText: "None" }).waitFor();
        await page.getByLabel("Move to").selectOption("Production");
        await page.getByLabel(/archive the/).check();
        await page.getByRole("button", { name: "Transition" }).click();
        await page.getByTestId("stage").filter({ hasText: "Production" }).waitFor();
        await page.getByRole("button", { name: "Edit description" }).click();
        await page.getByLabel("Description (Markdown)").fill(`Promoted **today** ${XSS_SCRIPT}`);
        await page.getByRole("button", { name: "Save description" }).click();
        await page.locator(".markdown strong").filter({ hasText: "today" }).waitFor();
        expect(await xssFired(page)).toBeUndefined();
        await shot("model-version");
        expect(await axeViolations(page)).toEqual([]);
        // Version 1 was archived by the transition.
        await page.getByRole("link", { name: "← Model fraud-model" }).click();
        await page.getByRole("row").filter({ hasText: "Version 1" }).getByText("Archived").waitFor();
        await page.getByRole("link", { name: "Version 1" }).click();
        await page.getByRole("button", { name: "Delete version" }).click();
        await page.getByRole("button", { name: "Yes, delete version" }).click();
        await page.getByRole("heading", { name: "Model fraud-model" }).waitFor();
        await page.getByRole("link", { name: "Version 1" }).waitFor({ state: "detached" });
      },
    );

    onFolder(
      "sets an alias on the model page, sees it on both pages, and removes it from the version page",
      async () => {
        await go(`/models/${data.modelName}`);
        const aliases = page.getByRole("region", { name: "Aliases" });
        await aliases.getByText("No aliases yet.").waitFor();
        await aliases.getByLabel("Alias", { exact: true }).fill("champion");
        await aliases.getByLabel("Version").selectOption("2");
        await aliases.getByRole("button", { name: "Set alias" }).click();
        await aliases
          .getByRole("row")
          .filter({ hasText: "@champion" })
          .getByRole("link", { name: "Version 2" })
          .waitFor();
        // The versions table shows it beside version 2.
        const versions = page.getByRole("region", { name: "Versions" });
        await versions.getByRole("row").filter({ hasText: "Version 2" }).getByText("@champion").waitFor();
        await shotBoth("model-aliases", () =>
          page.getByRole("region", { name: "Aliases" }).getByText("@champion").waitFor(),
        );
        expect(await axeViolations(page)).toEqual([]);
        // A refused alias: the server's message, in place.
        await aliases.getByLabel("Alias", { exact: true }).fill("latest");
        await aliases.getByRole("button", { name: "Set alias" }).click();
        await aliases.getByRole("alert").filter({ hasText: "reserved" }).waitFor();

        await aliases.getByRole("link", { name: "Version 2" }).click();
        await page.getByTestId("aliases").getByText("@champion").waitFor();
        const versionAliases = page.getByRole("region", { name: "Aliases" });
        await versionAliases.getByLabel("Alias", { exact: true }).fill("challenger");
        await versionAliases.getByRole("button", { name: "Add alias" }).click();
        await page.getByTestId("aliases").getByText("@challenger").waitFor();
        await shotBoth("version-aliases", () => page.getByTestId("aliases").getByText("@challenger").waitFor());
        expect(await axeViolations(page)).toEqual([]);
        await versionAliases.getByRole("button", { name: "Remove alias challenger" }).click();
        await page.getByTestId("aliases").getByText("@challenger").waitFor({ state: "detached" });
        expect(await new TrackerClient({ baseUrl: server.url }).listRegisteredModelAliases(data.modelName)).toEqual([
          { alias: "champion", version: "2" },
        ]);
      },
    );

    onFolder("registers a run's model from its page and moves the version to Production", async () => {
      await go(`/runs/${data.runIds["tiny-lr"]}`);
      const form = page.getByRole("form", { name: "Register model" });
      await form.getByLabel("Model name").fill("tiny-model");
      await form.getByRole("button", { name: "Register model" }).click();
      await page.getByRole("heading", { name: "tiny-model version 1" }).waitFor();
      await page.getByLabel("Move to").selectOption("Production");
      await page.getByRole("button", { name: "Transition" }).click();
      await page.getByTestId("stage").filter({ hasText: "Production" }).waitFor();
      // The source run by its name.
      await page.getByRole("link", { name: "tiny-lr", exact: true }).click();
      await page
        .getByRole("region", { name: "Registered model versions" })
        .getByRole("link", { name: "tiny-model version 1" })
        .waitFor();
    });

    onFolder("refreshes RUNNING runs live, keeping the selection, and can be paused", async () => {
      const client = new TrackerClient({ baseUrl: server.url });
      const running = data.runIds["still-training"]!;
      await go(`/runs?e=${data.experimentId}&cols=metrics.acc&sel=${data.best}`);
      const row = page.locator(`[role=row][data-run-id="${running}"]`);
      await row.filter({ hasText: "0.5" }).waitFor();
      await client.logMetric(running, "acc", 0.625, { step: 1 });
      await row.filter({ hasText: "0.625" }).waitFor();
      expect(await page.locator(`[role=row][data-run-id="${data.best}"] input[type=checkbox]`).isChecked()).toBe(true);
      await page.getByLabel("Live refresh").uncheck();
      await page.waitForFunction(() => new URL(location.href).searchParams.get("paused") === "1");
      await page.getByText("(on)").waitFor({ state: "detached" });
    });

    onFolder(
      "shows MLflow's system tags (run name, user, source, parent) of runs created through MLflow's paths",
      async () => {
        const { parent, child } = await mlflowRunPair("mlflow");

        await go(`/runs?e=${data.experimentId}`);
        const table = page.getByTestId("runs-table");
        const row = table.locator(`[role=row][data-run-id="${child}"]`);
        await row.getByRole("link", { name: "mlflow-child", exact: true }).waitFor();
        expect(await row.textContent()).toContain("alice");
        expect(await row.textContent()).toContain("mlflow_train.py");
        const names = await table.locator("[role=row][data-run-id] a").allTextContents();
        expect(names.indexOf("mlflow-child")).toBe(names.indexOf("mlflow-parent") + 1);
        await shotBoth("runs-mlflow-tags", () =>
          page.getByTestId("runs-table").getByRole("link", { name: "mlflow-child", exact: true }).waitFor(),
        );

        await go(`/runs/${child}`);
        await page.getByRole("heading", { name: /mlflow-child/ }).waitFor();
        const meta = page.locator("dl.meta");
        await meta.getByText("alice", { exact: true }).waitFor();
        await meta.getByText("mlflow_train.py", { exact: true }).waitFor();
        // The parent run by its name (its id in the title).
        await meta.getByRole("link", { name: "mlflow-parent" }).waitFor();
        expect(await meta.getByRole("link", { name: "mlflow-parent" }).getAttribute("title")).toBe(parent);
        await page.getByRole("link", { name: "← Runs of fraud-detection" }).waitFor();
        await shotBoth("run-mlflow-tags", () => page.getByRole("link", { name: "mlflow-parent" }).waitFor());
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole("link", { name: "mlflow-parent" }).click();
        await page.getByRole("heading", { name: /mlflow-parent/ }).waitFor();
      },
    );

    preview(
      "lists a run's logged models on its page, the experiment's on their own page, and links a version to its model",
      async () => {
        const client = new TrackerClient({ baseUrl: server.url });
        const { child, parent } = await mlflowRunPair("lm");
        // As MLflow 3's log_model sends it: the model with the client's context tags, through MLflow's path.
        const model = (
          await mlflowPost<{ model: { info: { model_id: string; artifact_uri: string } } }>("logged-models", {
            experiment_id: data.experimentId,
            name: "fraud-classifier",
            model_type: "sklearn",
            source_run_id: child,
            params: [
              { key: "n_estimators", value: "200" },
              { key: "max_depth", value: "7" },
            ],
            tags: [
              { key: "mlflow.user", value: "alice" },
              { key: "mlflow.source.name", value: "mlflow_train.py" },
              { key: "team", value: "fraud" },
            ],
          })
        ).model;
        const modelId = model.info.model_id;
        // Metrics of the model: points logged by its run with its id, through MLflow's path.
        for (const [step, value] of [0.74, 0.81, 0.88].entries()) {
          await mlflowPost("runs/log-metric", {
            run_id: child,
            key: "auc",
            value,
            timestamp: Date.now(),
            step,
            model_id: modelId,
          });
        }
        // Its files, through the artifact service below the model's artifact URI.
        const artifactPath = model.info.artifact_uri.replace(/^mlflow-artifacts:\//, "");
        for (const [file, text] of [
          ["MLmodel", `artifact_path: model\nmodel_id: ${modelId}\nflavors:\n  sklearn: {}\n`],
          ["requirements.txt", "scikit-learn==1.7.2\n"],
        ] as const) {
          const put = await fetch(`${server.url}/api/2.0/mlflow-artifacts/artifacts/${artifactPath}/${file}`, {
            method: "PUT",
            body: text,
          });
          expect(put.status, await put.text()).toBe(200);
        }
        await client.finalizeLoggedModel(modelId);
        const pending = await client.createLoggedModel(data.experimentId, {
          name: "half-uploaded",
          sourceRunId: parent,
        });

        await go(`/runs/${child}`);
        const section = page.getByRole("region", { name: "Logged models" });
        await section.getByRole("heading", { name: /Logged models \(1\)/ }).waitFor();
        const card = section.getByRole("region", { name: "Logged model fraud-classifier" });
        await card.getByRole("link", { name: "fraud-classifier" }).waitFor();
        await card.getByText("READY", { exact: true }).waitFor();
        await card.getByText(modelId, { exact: true }).waitFor();
        await card
          .getByRole("table", { name: "Parameters of fraud-classifier" })
          .getByRole("cell", { name: "200" })
          .waitFor();
        const auc = card
          .getByRole("table", { name: "Metrics of fraud-classifier" })
          .getByRole("row")
          .filter({ hasText: "auc" });
        expect(await auc.textContent()).toContain("0.88");
        await section.scrollIntoViewIfNeeded();
        expect(await axeViolations(page)).toEqual([]);
        if (screenshotting) {
          await section.screenshot({ path: path.join(screenshots, "run-logged-models.png") });
          const dark = await openPage(browser, "dark");
          await dark.page.goto(page.url());
          const darkSection = dark.page.getByRole("region", { name: "Logged models" });
          await darkSection.getByText("READY", { exact: true }).waitFor();
          await darkSection.screenshot({ path: path.join(screenshots, "run-logged-models-dark.png") });
          expect(cspProblems(dark)).toEqual([]);
          await dark.context.close();
        }

        // The experiment's list, from the runs page; URL-addressable.
        await go(`/runs?e=${data.experimentId}`);
        await page.getByRole("link", { name: "Logged models" }).click();
        await page.waitForFunction(() => location.pathname === "/logged-models");
        expect(new URL(page.url()).searchParams.get("e")).toBe(data.experimentId);
        const list = page.getByRole("table", { name: "Logged models" });
        const row = list.getByRole("row").filter({ hasText: "fraud-classifier" });
        await row.getByText("READY", { exact: true }).waitFor();
        await row.getByRole("link", { name: child }).waitFor();
        const pendingRow = list.getByRole("row").filter({ hasText: "half-uploaded" });
        await pendingRow.getByText("PENDING", { exact: true }).waitFor();
        await pendingRow.getByText(pending.info.model_id).waitFor();
        await shotBoth("logged-models", () =>
          page.getByRole("table", { name: "Logged models" }).getByText("half-uploaded").waitFor(),
        );
        expect(await axeViolations(page)).toEqual([]);
        await row.getByRole("link", { name: "fraud-classifier" }).click();
        await page.getByRole("heading", { name: /fraud-classifier/ }).waitFor();
        // The experiment and the source run by their names (the run's id in its title).
        await page.getByRole("link", { name: "← Logged models of fraud-detection" }).waitFor();
        const sourceRun = page.getByRole("link", { name: "lm-child", exact: true });
        expect(await sourceRun.getAttribute("title")).toBe(child);
        await sourceRun.click();
        await page.getByRole("heading", { name: /lm-child/ }).waitFor();

        // A version registered from the logged model links to it.
        await client.createRegisteredModel("classifier-from-logged-model");
        const version = await client.createModelVersion("classifier-from-logged-model", `models:/${modelId}`, {
          runId: child,
        });
        await go(`/models/classifier-from-logged-model/versions/${version.version}`);
        await page.getByRole("link", { name: modelId }).waitFor();
        await shot("version-logged-model");
        await page.getByRole("link", { name: modelId }).click();
        await page.getByRole("heading", { name: /fraud-classifier/ }).waitFor();
        expect(page.url()).toBe(`${server.url}/logged-models/${modelId}`);

        // The model's own page: metrics with their history, tags (MLflow's system tags under the
        // server's namespace, folded), and the artifact browser on the model's files.
        const metrics = page.getByRole("table", { name: "Metrics of fraud-classifier" });
        const aucRow = metrics.getByRole("row").filter({ hasText: "auc" });
        await aucRow.waitFor();
        expect((await aucRow.getByRole("cell").allTextContents()).slice(0, 4)).toEqual(["0.88", "0.74", "0.88", "2"]);
        await page
          .getByRole("table", { name: "Tags of fraud-classifier" })
          .getByRole("cell", { name: "fraud" })
          .waitFor();
        await page.getByText("System tags (2)").click();
        const system = page.getByRole("table", { name: "System tags of fraud-classifier" });
        await system.getByRole("rowheader", { name: "tracker.user" }).waitFor();
        await system.getByRole("rowheader", { name: "tracker.source.name" }).waitFor();
        const artifacts = page.getByRole("region", { name: "Artifacts" });
        await artifacts.getByRole("button", { name: "requirements.txt" }).waitFor();
        await artifacts.getByRole("button", { name: "MLmodel" }).click();
        // The MLmodel file is shown as a model: its model_id in the "About" table.
        await page
          .getByRole("region", { name: "Preview of MLmodel" })
          .getByRole("table", { name: "About the model" })
          .getByRole("cell", { name: modelId })
          .waitFor();
        await shotBoth("logged-model", () =>
          page.getByRole("table", { name: "Metrics of fraud-classifier" }).getByText("auc").waitFor(),
        );
        expect(await axeViolations(page)).toEqual([]);
        expect(cspProblems(watched)).toEqual([]);
      },
    );

    onFolder("renders under the CSP without violations, and in dark mode", async () => {
      expect(cspProblems(watched)).toEqual([]);
      const dark = await openPage(browser, "dark");
      await dark.page.goto(`${server.url}/runs?e=${data.experimentId}`);
      await dark.page.getByRole("link", { name: "baseline" }).waitFor();
      const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe("rgb(15, 19, 24)");
      // The columns are narrower than the table: the heading band and the rows' lines span it all.
      const spans = await dark.page.getByTestId("runs-table").evaluate((table) => ({
        table: table.clientWidth,
        head: table.querySelector(".row.head")!.getBoundingClientRect().width,
        row: table.querySelector(".row:not(.head)")!.getBoundingClientRect().width,
      }));
      expect(spans.head).toBe(spans.table);
      expect(spans.row).toBe(spans.table);
      if (screenshotting) await dark.page.screenshot({ path: path.join(screenshots, "runs-dark.png") });
      expect(cspProblems(dark)).toEqual([]);
      await dark.context.close();
    });
  });
}

describe("web UI with a token and the mlflow namespace", () => {
  const server = useTestServer("pglite", { webDir, authToken: "s3cret", namespace: "mlflow" });
  let closeBrowser: () => Promise<void>;
  let browser: Browser;
  beforeAll(async () => {
    await seed(server.url, "mlflow", "s3cret");
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
  });

  it("asks for the token once, keeps it for the session, and reads mlflow.* system tags", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/experiments`);
    await page.getByRole("dialog", { name: "This server needs a token" }).waitFor();
    await page.getByLabel("Token", { exact: true }).fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("dialog", { name: "This server needs a token" }).waitFor();
    await page.getByLabel("Token", { exact: true }).fill("s3cret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "fraud-detection" }).click();
    await page.getByRole("link", { name: "best-net", exact: true }).waitFor();
    // User and source columns come from mlflow.user / mlflow.source.name; nesting from mlflow.parentRunId.
    const row = page.locator("[role=row][data-run-id]").filter({ hasText: "still-training" });
    expect(await row.textContent()).toContain("bob");
    const names = await page.locator("[role=row][data-run-id] a").allTextContents();
    expect(names.indexOf("best-net-fold-1")).toBe(names.indexOf("best-net") + 1);
    // The token survives a reload (sessionStorage).
    await page.reload();
    await page.getByRole("link", { name: "best-net", exact: true }).waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await context.close();
  });
});
