import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

interface Metric {
  key: string;
  value: number | string;
  timestamp: number;
  step: number;
}
interface Run {
  info: { run_id: string; artifact_uri: string };
  data: {
    metrics: Metric[];
    params: Array<{ key: string; value: string }>;
    tags: Array<{ key: string; value: string }>;
  };
}

describe.each(testDatabases())("revision C metrics, params, tags, batches, artifacts on %s", (kind) => {
  // Local artifact folders (as with --default-artifact-root): the artifact test writes into them directly.
  const suite = useTestServer(kind, { proxyArtifacts: false });
  const { api } = suite;
  let experimentId: string;
  beforeAll(async () => {
    experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "data-exp" })).body
      .experiment_id;
  });

  const newRun = async () =>
    (await api.post<{ run: Run }>("runs/create", { experiment_id: experimentId })).body.run.info.run_id;
  const getRun = async (id: string) => (await api.get<{ run: Run }>("runs/get", { run_id: id })).body.run;
  const ok = async (op: string, body: Record<string, unknown>) => {
    const res = await api.post(op, body);
    expect(res.status, `${op} ${JSON.stringify(res.body)}`).toBe(200);
    expect(res.body).toEqual({});
  };
  const rejects = async (op: string, body: Record<string, unknown>, code = "INVALID_PARAMETER_VALUE") => {
    const res = await api.post(op, body);
    expect(res.status, `${op} ${JSON.stringify(body).slice(0, 100)}`).toBe(
      code === "RESOURCE_DOES_NOT_EXIST" ? 404 : 400,
    );
    expect(res.body).toMatchObject({ error_code: code });
  };

  it("logs metrics with steps; runs/get picks the latest timestamp, then the max value; history has every value", async () => {
    const id = await newRun();
    await ok("runs/log-metric", { run_id: id, key: "loss", value: 0.9, timestamp: 100, step: 0 });
    await ok("runs/log-metric", { run_id: id, key: "loss", value: 0.5, timestamp: 300, step: 2 });
    await ok("runs/log-metric", { run_id: id, key: "loss", value: 0.7, timestamp: 300, step: 1 });
    await ok("runs/log-metric", { run_id: id, key: "loss", value: 0.1, timestamp: 200, step: 3 });
    await ok("runs/log-metric", { run_id: id, key: "acc", value: "1.5", timestamp: "50" });
    const run = await getRun(id);
    expect(run.data.metrics).toEqual([
      { key: "acc", value: 1.5, timestamp: 50, step: 0 },
      { key: "loss", value: 0.7, timestamp: 300, step: 1 },
    ]);
    const history = await api.get<{ metrics: Metric[] }>("metrics/get-history", { run_id: id, metric_key: "loss" });
    expect(history.body.metrics.map((m) => m.value)).toEqual([0.9, 0.5, 0.7, 0.1]);
    expect(history.body.metrics.map((m) => m.step)).toEqual([0, 2, 1, 3]);
    const empty = await api.get<{ metrics: Metric[] }>("metrics/get-history", { run_id: id, metric_key: "nothing" });
    expect(empty.body.metrics).toEqual([]);
    expect((await api.get("metrics/get-history", { run_id: "a".repeat(32), metric_key: "loss" })).status).toBe(404);
  });

  it("accepts NaN and ±Infinity metric values and returns them as strings", async () => {
    const id = await newRun();
    await ok("runs/log-metric", { run_id: id, key: "nan", value: "NaN", timestamp: 1 });
    await ok("runs/log-metric", { run_id: id, key: "inf", value: "Infinity", timestamp: 1 });
    await ok("runs/log-metric", { run_id: id, key: "ninf", value: "-Infinity", timestamp: 1 });
    const run = await getRun(id);
    expect(run.data.metrics).toEqual([
      { key: "inf", value: "Infinity", timestamp: 1, step: 0 },
      { key: "nan", value: "NaN", timestamp: 1, step: 0 },
      { key: "ninf", value: "-Infinity", timestamp: 1, step: 0 },
    ]);
    await rejects("runs/log-metric", { run_id: id, key: "bad", value: "abc", timestamp: 1 });
    await rejects("runs/log-metric", { run_id: id, key: "bad", value: 1 });
  });

  it("logs a param once; the same value again is fine, a different value is INVALID_PARAMETER_VALUE", async () => {
    const id = await newRun();
    await ok("runs/log-parameter", { run_id: id, key: "lr", value: "0.1" });
    await ok("runs/log-parameter", { run_id: id, key: "lr", value: "0.1" });
    await rejects("runs/log-parameter", { run_id: id, key: "lr", value: "0.2" });
    expect((await getRun(id)).data.params).toEqual([{ key: "lr", value: "0.1" }]);
  });

  it("enforces the param limits at the boundary: key 255 bytes, value 500 bytes", async () => {
    const id = await newRun();
    await ok("runs/log-parameter", { run_id: id, key: "k".repeat(255), value: "v".repeat(500) });
    await rejects("runs/log-parameter", { run_id: id, key: "k".repeat(256), value: "v" });
    await rejects("runs/log-parameter", { run_id: id, key: "k2", value: "v".repeat(501) });
    // 250 two-byte characters are 500 bytes: fine; 251 are 502 bytes: too long.
    await ok("runs/log-parameter", { run_id: id, key: "k3", value: "é".repeat(250) });
    await rejects("runs/log-parameter", { run_id: id, key: "k4", value: "é".repeat(251) });
  });

  it("rejects malformed keys", async () => {
    const id = await newRun();
    for (const key of ["", ".", "../up", "/abs", "semi;colon", "new\nline"]) {
      await rejects("runs/log-metric", { run_id: id, key, value: 1, timestamp: 1 });
    }
    await ok("runs/log-metric", { run_id: id, key: "a/b.c-d e_f", value: 1, timestamp: 1 });
  });

  it("sets, overwrites and deletes tags; tag limits; deleting a missing tag is 404", async () => {
    const id = await newRun();
    await ok("runs/set-tag", { run_id: id, key: "color", value: "red" });
    await ok("runs/set-tag", { run_id: id, key: "color", value: "blue" });
    expect((await getRun(id)).data.tags).toContainEqual({ key: "color", value: "blue" });
    await ok("runs/set-tag", { run_id: id, key: "k".repeat(250), value: "v".repeat(5000) });
    await rejects("runs/set-tag", { run_id: id, key: "k".repeat(251), value: "v" });
    await rejects("runs/set-tag", { run_id: id, key: "big", value: "v".repeat(5001) });
    await ok("runs/delete-tag", { run_id: id, key: "color" });
    expect((await getRun(id)).data.tags.find((t) => t.key === "color")).toBeUndefined();
    await rejects("runs/delete-tag", { run_id: id, key: "color" }, "RESOURCE_DOES_NOT_EXIST");
    await rejects("runs/set-tag", { run_id: "b".repeat(32), key: "k", value: "v" }, "RESOURCE_DOES_NOT_EXIST");
  });

  it("logs a batch: all kinds, last tag value wins, identical params fine", async () => {
    const id = await newRun();
    await ok("runs/log-batch", {
      run_id: id,
      metrics: [
        { key: "m", value: 1, timestamp: 10, step: 0 },
        { key: "m", value: 2, timestamp: 20, step: 1 },
      ],
      params: [
        { key: "p", value: "x" },
        { key: "p", value: "x" },
      ],
      tags: [
        { key: "t", value: "first" },
        { key: "t", value: "last" },
      ],
    });
    const run = await getRun(id);
    expect(run.data.metrics).toEqual([{ key: "m", value: 2, timestamp: 20, step: 1 }]);
    expect(run.data.params).toEqual([{ key: "p", value: "x" }]);
    expect(run.data.tags).toContainEqual({ key: "t", value: "last" });
  });

  it("writes nothing of a batch that changes a param", async () => {
    const id = await newRun();
    await ok("runs/log-parameter", { run_id: id, key: "p", value: "1" });
    await rejects("runs/log-batch", {
      run_id: id,
      metrics: [{ key: "should-not-exist", value: 1, timestamp: 1 }],
      params: [
        { key: "q", value: "new" },
        { key: "p", value: "2" },
      ],
      tags: [{ key: "should-not-exist", value: "x" }],
    });
    const run = await getRun(id);
    expect(run.data.metrics).toEqual([]);
    expect(run.data.params).toEqual([{ key: "p", value: "1" }]);
    expect(run.data.tags.find((t) => t.key === "should-not-exist")).toBeUndefined();
  });

  it("enforces the batch limits at the boundary", async () => {
    const id = await newRun();
    // Distinct points (a point logged again would be skipped): `from` shifts the values.
    const metrics = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({ key: `m${i % 7}`, value: from + i, timestamp: i }));
    const kv = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, value: "v" }));
    await ok("runs/log-batch", { run_id: id, metrics: metrics(1000) });
    await rejects("runs/log-batch", { run_id: id, metrics: metrics(1001) });
    await ok("runs/log-batch", { run_id: id, params: kv("p", 100) });
    await rejects("runs/log-batch", { run_id: id, params: kv("q", 101) });
    await ok("runs/log-batch", { run_id: id, tags: kv("t", 100) });
    await rejects("runs/log-batch", { run_id: id, tags: kv("u", 101) });
    // 900 metrics + 50 params + 50 tags is valid; one more tag is not.
    await ok("runs/log-batch", { run_id: id, metrics: metrics(900, 1000), params: kv("r", 50), tags: kv("s", 50) });
    await rejects("runs/log-batch", { run_id: id, metrics: metrics(900), params: kv("r2", 50), tags: kv("s2", 51) });
    await ok("runs/log-batch", { run_id: id, params: [{ key: "k".repeat(250), value: "v".repeat(250) }] });
    await rejects("runs/log-batch", { run_id: id, params: [{ key: "k".repeat(251), value: "v" }] });
    await rejects("runs/log-batch", { run_id: id, params: [{ key: "long", value: "v".repeat(251) }] });
    await rejects("runs/log-batch", { run_id: id, tags: [{ key: "long", value: "v".repeat(251) }] });
    const count = await suite.server.database
      .knex("metrics")
      .where({ run_uuid: id })
      .count<{ count: number | string }[]>("* as count");
    expect(Number(count[0].count)).toBe(1900);
  });

  it("appends log-model descriptors to the history tag", async () => {
    const id = await newRun();
    const model = (artifactPath: string) => ({
      artifact_path: artifactPath,
      flavors: { sklearn: {} },
      utc_time_created: "2026-11-22 04:00:00.000000",
      run_id: id,
    });
    await ok("runs/log-model", { run_id: id, model_json: JSON.stringify(model("model")) });
    await ok("runs/log-model", { run_id: id, model_json: JSON.stringify(model("model2")) });
    const tag = (await getRun(id)).data.tags.find((t) => t.key === "tracker.log-model.history");
    expect(JSON.parse(tag!.value)).toEqual([model("model"), model("model2")]);
    await rejects("runs/log-model", { run_id: id, model_json: "not json" });
    await rejects("runs/log-model", { run_id: id, model_json: JSON.stringify({ artifact_path: "m" }) });
  });

  it("lists artifacts by path prefix and refuses paths that leave the run's directory", async () => {
    const run = (await api.post<{ run: Run }>("runs/create", { experiment_id: experimentId })).body.run;
    const root = run.info.artifact_uri;
    fs.mkdirSync(path.join(root, "model"), { recursive: true });
    fs.writeFileSync(path.join(root, "model", "weights.bin"), "12345");
    fs.writeFileSync(path.join(root, "readme.txt"), "hi");
    const top = await api.get<{
      root_uri: string;
      files: Array<{ path: string; is_dir: boolean; file_size?: number }>;
    }>("artifacts/list", { run_id: run.info.run_id });
    expect(top.status).toBe(200);
    expect(top.body.root_uri).toBe(root);
    expect(top.body.files).toEqual([
      { path: "model", is_dir: true },
      { path: "readme.txt", is_dir: false, file_size: 2 },
    ]);
    const sub = await api.get<{ files: unknown[] }>("artifacts/list", { run_id: run.info.run_id, path: "model" });
    expect(sub.body.files).toEqual([{ path: "model/weights.bin", is_dir: false, file_size: 5 }]);
    const none = await api.get<{ files: unknown[] }>("artifacts/list", {
      run_id: run.info.run_id,
      path: "nothing-here",
    });
    expect(none.body.files).toEqual([]);
    for (const bad of ["../", "../../etc", "/etc", "model/../../x"]) {
      const res = await api.get("artifacts/list", { run_id: run.info.run_id, path: bad });
      expect(res.status, bad).toBe(400);
    }
    fs.symlinkSync("/etc", path.join(root, "escape"));
    const viaLink = await api.get("artifacts/list", { run_id: run.info.run_id, path: "escape" });
    expect(viaLink.status).toBe(400);
  });
});
