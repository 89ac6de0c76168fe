import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { testDatabases, useTestServer } from "@tracker/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { TrackerClient } from "./client.js";
import { trackerError } from "./testing/expect-error.js";

describe.each(testDatabases())("TrackerClient tracking operations on %s", (kind) => {
  // Local artifact folders (as with --default-artifact-root): the artifact test writes into them
  // directly. Artifacts through the server are tested in artifacts.test.ts.
  const suite = useTestServer(kind, { proxyArtifacts: false });
  let client: TrackerClient;

  beforeAll(async () => {
    client = new TrackerClient({ baseUrl: suite.url });
  });

  describe("experiments", () => {
    it("creates, gets, renames, tags, deletes and restores an experiment", async () => {
      const id = await client.createExperiment("exp-lifecycle", { tags: { team: "ml" } });
      expect(id).toMatch(/^[0-9]+$/);

      const experiment = await client.getExperiment(id);
      expect(experiment).toMatchObject({
        experiment_id: id,
        name: "exp-lifecycle",
        lifecycle_stage: "active",
        tags: [{ key: "team", value: "ml" }],
      });
      expect(experiment.artifact_location).toContain(id);

      await client.renameExperiment(id, "exp-lifecycle-renamed");
      await client.setExperimentTag(id, "owner", "ada");
      const renamed = await client.getExperimentByName("exp-lifecycle-renamed");
      expect(renamed?.experiment_id).toBe(id);
      expect(renamed?.tags).toEqual(expect.arrayContaining([{ key: "owner", value: "ada" }]));

      await client.deleteExperiment(id);
      expect((await client.getExperiment(id)).lifecycle_stage).toBe("deleted");
      await client.restoreExperiment(id);
      expect((await client.getExperiment(id)).lifecycle_stage).toBe("active");
    });

    it("passes the artifact location and tags given as a list", async () => {
      const id = await client.createExperiment("exp-location", {
        artifactLocation: "/tmp/somewhere",
        tags: [{ key: "k", value: "v" }],
      });
      const experiment = await client.getExperiment(id);
      expect(experiment.artifact_location).toBe("/tmp/somewhere");
      expect(experiment.tags).toEqual([{ key: "k", value: "v" }]);
    });

    it("returns undefined from getExperimentByName for an unknown name", async () => {
      expect(await client.getExperimentByName("no-such-experiment")).toBeUndefined();
    });

    it("throws TrackerError with errorCode, status and message", async () => {
      await client.createExperiment("exp-duplicate");
      const duplicate = await trackerError(client.createExperiment("exp-duplicate"));
      expect(duplicate).toMatchObject({ errorCode: "RESOURCE_ALREADY_EXISTS", status: 400, name: "TrackerError" });
      expect(duplicate.message).toMatch(/exp-duplicate|exists/i);

      const missing = await trackerError(client.getExperiment("987654321"));
      expect(missing).toMatchObject({ errorCode: "RESOURCE_DOES_NOT_EXIST", status: 404 });

      const invalid = await trackerError(client.getExperiment("not-a-number"));
      expect(invalid).toMatchObject({ errorCode: "INVALID_PARAMETER_VALUE", status: 400 });
    });

    it("iterates searchExperiments over every page", async () => {
      for (let i = 0; i < 5; i++) await client.createExperiment(`paged-exp-${i}`, { tags: { group: "paged" } });
      const pages: number[] = [];
      for await (const page of client.searchExperiments({ filter: "tags.group = 'paged'", pageSize: 2 }).pages())
        pages.push(page.items.length);
      expect(pages).toEqual([2, 2, 1]);

      const names: string[] = [];
      for await (const experiment of client.searchExperiments({
        filter: "tags.group = 'paged'",
        orderBy: ["name DESC"],
        pageSize: 2,
      })) {
        names.push(experiment.name);
      }
      expect(names).toEqual(["paged-exp-4", "paged-exp-3", "paged-exp-2", "paged-exp-1", "paged-exp-0"]);

      expect(
        await client.searchExperiments({ filter: "name LIKE 'paged-exp-%'", pageSize: 2 }).toArray(3),
      ).toHaveLength(3);
      expect((await client.searchExperiments({ filter: "name = 'paged-exp-3'" }).first())?.name).toBe("paged-exp-3");
    });

    it("searches deleted experiments with viewType", async () => {
      const id = await client.createExperiment("exp-to-delete-for-search");
      await client.deleteExperiment(id);
      const active = await client.searchExperiments({ filter: "name = 'exp-to-delete-for-search'" }).toArray();
      const deleted = await client
        .searchExperiments({ filter: "name = 'exp-to-delete-for-search'", viewType: "DELETED_ONLY" })
        .toArray();
      expect(active).toEqual([]);
      expect(deleted.map((e) => e.experiment_id)).toEqual([id]);
    });

    it("reports a malformed filter as INVALID_PARAMETER_VALUE on iteration", async () => {
      const error = await trackerError(client.searchExperiments({ filter: "name = = 'x'" }).toArray());
      expect(error).toMatchObject({ errorCode: "INVALID_PARAMETER_VALUE", status: 400 });
    });
  });

  describe("runs", () => {
    let experimentId: string;
    beforeAll(async () => {
      experimentId = await client.createExperiment("runs-exp");
    });

    it("creates a run and gets it back", async () => {
      const run = await client.createRun(experimentId, {
        runName: "first",
        startTime: 1_700_000_000_000,
        tags: { source: "test" },
      });
      expect(run.info).toMatchObject({
        experiment_id: experimentId,
        run_name: "first",
        status: "RUNNING",
        start_time: 1_700_000_000_000,
        lifecycle_stage: "active",
      });
      expect(run.info.run_id).toMatch(/^[0-9a-f]{32}$/);
      expect(run.data.tags).toEqual(expect.arrayContaining([{ key: "source", value: "test" }]));

      const fetched = await client.getRun(run.info.run_id);
      expect(fetched.info.run_id).toBe(run.info.run_id);
      expect(fetched.data).toMatchObject({ metrics: [], params: [] });
    });

    it("logs metrics, params and tags, with NaN and infinities as numbers", async () => {
      const { info } = await client.createRun(experimentId);
      await client.logMetric(info.run_id, "loss", 0.5, { step: 1, timestamp: 1000 });
      await client.logMetric(info.run_id, "loss", 0.25, { step: 2, timestamp: 2000 });
      await client.logMetric(info.run_id, "nan", NaN);
      await client.logMetric(info.run_id, "inf", Infinity);
      await client.logMetric(info.run_id, "ninf", -Infinity);
      await client.logParam(info.run_id, "lr", 0.01);
      await client.logParam(info.run_id, "deep", true);
      await client.setTag(info.run_id, "stage", "dev");
      await client.setTag(info.run_id, "gone", "soon");
      await client.deleteTag(info.run_id, "gone");

      const run = await client.getRun(info.run_id);
      const metrics = Object.fromEntries(run.data.metrics.map((m) => [m.key, m]));
      expect(metrics.loss).toMatchObject({ value: 0.25, step: 2, timestamp: 2000 });
      expect(metrics.nan.value).toBeNaN();
      expect(metrics.inf.value).toBe(Infinity);
      expect(metrics.ninf.value).toBe(-Infinity);
      expect(run.data.params).toEqual(
        expect.arrayContaining([
          { key: "lr", value: "0.01" },
          { key: "deep", value: "true" },
        ]),
      );
      expect(run.data.tags).toEqual(expect.arrayContaining([{ key: "stage", value: "dev" }]));
      expect(run.data.tags.map((t) => t.key)).not.toContain("gone");

      const history = await client.getMetricHistory(info.run_id, "loss");
      expect(history.map((m) => [m.step, m.value]).sort()).toEqual([
        [1, 0.5],
        [2, 0.25],
      ]);
      expect((await client.getMetricHistory(info.run_id, "nan"))[0].value).toBeNaN();
    });

    it("refuses to change a param with INVALID_PARAMETER_VALUE", async () => {
      const { info } = await client.createRun(experimentId);
      await client.logParam(info.run_id, "p", "1");
      await client.logParam(info.run_id, "p", "1");
      expect(await trackerError(client.logParam(info.run_id, "p", "2"))).toMatchObject({
        errorCode: "INVALID_PARAMETER_VALUE",
        status: 400,
      });
    });

    it("updates, terminates, deletes and restores a run", async () => {
      const { info } = await client.createRun(experimentId, { runName: "before" });
      const renamed = await client.updateRun(info.run_id, { runName: "after", status: "SCHEDULED" });
      expect(renamed).toMatchObject({ run_name: "after", status: "SCHEDULED" });

      const ended = await client.setTerminated(info.run_id, "FAILED", 1_800_000_000_000);
      expect(ended).toMatchObject({ status: "FAILED", end_time: 1_800_000_000_000 });
      const finished = await client.setTerminated(info.run_id);
      expect(finished.status).toBe("FINISHED");
      expect(finished.end_time).toBeGreaterThan(1_700_000_000_000);

      await client.deleteRun(info.run_id);
      expect((await client.getRun(info.run_id)).info.lifecycle_stage).toBe("deleted");
      expect(await trackerError(client.logMetric(info.run_id, "m", 1))).toMatchObject({
        errorCode: "INVALID_PARAMETER_VALUE",
      });
      await client.restoreRun(info.run_id);
      expect((await client.getRun(info.run_id)).info.lifecycle_stage).toBe("active");
    });

    it("throws RESOURCE_DOES_NOT_EXIST for an unknown run", async () => {
      expect(await trackerError(client.getRun("0".repeat(32)))).toMatchObject({
        errorCode: "RESOURCE_DOES_NOT_EXIST",
        status: 404,
      });
    });

    it("logBatch splits a batch over the limits into several requests", async () => {
      const { info } = await client.createRun(experimentId);
      const metrics = Array.from({ length: 2500 }, (_, i) => ({
        key: "batched",
        value: i,
        step: i,
        timestamp: 1_000 + i,
      }));
      const params = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, i]));
      const tags = Array.from({ length: 120 }, (_, i) => ({ key: `t${i}`, value: `v${i}` }));
      await client.logBatch(info.run_id, { metrics, params, tags });

      const history = await client.getMetricHistory(info.run_id, "batched");
      expect(history).toHaveLength(2500);
      const run = await client.getRun(info.run_id);
      expect(run.data.params).toHaveLength(150);
      expect(run.data.tags.filter((t) => /^t[0-9]+$/.test(t.key))).toHaveLength(120);
      expect(run.data.metrics.find((m) => m.key === "batched")).toMatchObject({ value: 2499, step: 2499 });
    });

    it("iterates searchRuns over every page, with filter and order", async () => {
      const searchExp = await client.createExperiment("search-runs-exp");
      for (let i = 0; i < 7; i++) {
        const { info } = await client.createRun(searchExp, { runName: `r${i}` });
        await client.logMetric(info.run_id, "acc", i / 10);
      }
      const runs = await client
        .searchRuns(searchExp, { filter: "metrics.acc >= 0.2", orderBy: ["metrics.acc DESC"], pageSize: 2 })
        .toArray();
      expect(runs.map((r) => r.info.run_name)).toEqual(["r6", "r5", "r4", "r3", "r2"]);
      expect(runs[0].data.metrics[0]).toMatchObject({ key: "acc", value: 0.6 });

      let pages = 0;
      for await (const page of client.searchRuns([searchExp], { pageSize: 3 }).pages()) {
        pages += 1;
        expect(page.items.length).toBeLessThanOrEqual(3);
      }
      expect(pages).toBe(3);
    });

    it("records a logged model", async () => {
      const { info } = await client.createRun(experimentId);
      await client.logModel(info.run_id, {
        artifact_path: "model",
        flavors: { python_function: {} },
        utc_time_created: "2026-01-01 00:00:00.000000",
        run_id: info.run_id,
      });
      const run = await client.getRun(info.run_id);
      const history = run.data.tags.find((t) => t.key.endsWith("log-model.history"));
      expect(JSON.parse(history?.value ?? "[]")).toHaveLength(1);
    });
  });

  describe("artifacts", () => {
    it("lists a run's artifacts from the local file system, all pages", async () => {
      const experimentId = await client.createExperiment("artifacts-exp");
      const { info } = await client.createRun(experimentId);
      const root = info.artifact_uri.startsWith("file://") ? fileURLToPath(info.artifact_uri) : info.artifact_uri;
      fs.mkdirSync(path.join(root, "model"), { recursive: true });
      fs.writeFileSync(path.join(root, "metrics.json"), "{}");
      fs.writeFileSync(path.join(root, "model", "weights.bin"), Buffer.alloc(1234));

      const top = await client.listArtifacts(info.run_id);
      expect(top.map((f) => [f.path, f.is_dir]).sort()).toEqual([
        ["metrics.json", false],
        ["model", true],
      ]);
      const inner = await client.listArtifacts(info.run_id, "model");
      expect(inner).toEqual([{ path: "model/weights.bin", is_dir: false, file_size: 1234 }]);
      expect(await trackerError(client.listArtifacts(info.run_id, "../escape"))).toMatchObject({
        errorCode: "INVALID_PARAMETER_VALUE",
      });
    });
  });

  describe("options", () => {
    it("accepts the server URL as a string and a trailing slash", async () => {
      const byString = new TrackerClient(`${suite.url}/`);
      expect((await byString.getExperiment("0")).name).toBe("Default");
    });

    it("uses a custom fetch for every request", async () => {
      const seen: string[] = [];
      const custom = new TrackerClient({
        baseUrl: suite.url,
        fetch: (request) => {
          seen.push(`${request.method} ${new URL(request.url).pathname}`);
          return fetch(request);
        },
      });
      await custom.getExperiment("0");
      await custom.searchExperiments({ pageSize: 1 }).first();
      expect(seen).toEqual(["GET /api/2.0/tracker/experiments/get", "POST /api/2.0/tracker/experiments/search"]);
    });

    it("turns an unreachable server into NETWORK_ERROR after the retries", async () => {
      const unreachable = new TrackerClient({
        baseUrl: "http://127.0.0.1:9",
        retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
      });
      expect(await trackerError(unreachable.getExperiment("0"))).toMatchObject({
        errorCode: "NETWORK_ERROR",
        status: 0,
      });
    });

    it("exposes the raw revision C client", async () => {
      const { data } = await client.raw.GET("/2.0/tracker/experiments/get", {
        params: { query: { experiment_id: "0" } },
      });
      expect(data?.experiment.name).toBe("Default");
    });
  });
});
