import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

/** Revisions A and B on the shared preview prefix, over the same database as C. */

interface PreviewRunInfo {
  run_uuid: string;
  experiment_id: number;
  name: string;
  source_type?: string;
  source_name?: string;
  source_version?: string;
  entry_point_name?: string;
  user_id: string;
  status: string;
  start_time: number;
  end_time?: number;
  artifact_uri: string;
  lifecycle_stage: string;
  tags: Array<{ key: string; value: string }>;
}
interface PreviewRun {
  info: PreviewRunInfo;
  data: {
    metrics: Array<{ key: string; value: number; timestamp: number }>;
    params: Array<{ key: string; value: string }>;
    tags: Array<{ key: string; value: string }>;
  };
}

describe.each(testDatabases())("revisions A and B on %s", (kind) => {
  // Local artifact folders (as with --default-artifact-root): the test writes into them directly.
  const suite = useTestServer(kind, { proxyArtifacts: false });
  const { preview } = suite;
  const { api: c } = suite;

  it("creates an experiment and run through A and reads them through B and C", async () => {
    const created = await preview.post<{ experiment_id: number }>("experiments/create", { name: "from-a" });
    expect(created.status).toBe(200);
    const id = created.body.experiment_id;
    expect(typeof id).toBe("number");
    const run = await preview.post<{ run: PreviewRun }>("runs/create", {
      experiment_id: id,
      user_id: "grace",
      run_name: "a-run",
      source_type: "LOCAL",
      source_name: "train.py",
      source_version: "abc123",
      entry_point_name: "main",
      start_time: 1700000000000,
      tags: [{ key: "team", value: "nlp" }],
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const info = run.body.run.info;
    expect(info).toMatchObject({
      experiment_id: id,
      name: "a-run",
      source_type: "LOCAL",
      source_name: "train.py",
      source_version: "abc123",
      entry_point_name: "main",
      user_id: "grace",
      status: "RUNNING",
      lifecycle_stage: "active",
    });
    expect(info.tags).toContainEqual({ key: "team", value: "nlp" });
    expect(run.body.run.data.tags).toContainEqual({ key: "team", value: "nlp" });

    const viaC = await c.get<{
      run: { info: { run_id: string; experiment_id: string }; data: { tags: Array<{ key: string; value: string }> } };
    }>("runs/get", {
      run_id: info.run_uuid,
    });
    expect(viaC.body.run.info.experiment_id).toBe(String(id));
    expect(viaC.body.run.data.tags).toEqual(
      expect.arrayContaining([
        { key: "tracker.source.type", value: "LOCAL" },
        { key: "tracker.source.name", value: "train.py" },
        { key: "tracker.source.git.commit", value: "abc123" },
        { key: "tracker.project.entryPoint", value: "main" },
      ]),
    );
    const expC = await c.get<{ experiment: { experiment_id: string; name: string } }>("experiments/get", {
      experiment_id: String(id),
    });
    expect(expC.body.experiment).toMatchObject({ experiment_id: String(id), name: "from-a" });
    const expB = await preview.get<{ experiment: { experiment_id: number }; runs: PreviewRunInfo[] }>(
      "experiments/get",
      { experiment_id: id },
    );
    expect(expB.body.experiment.experiment_id).toBe(id);
    expect(expB.body.runs.map((r) => r.run_uuid)).toEqual([info.run_uuid]);
  });

  it("lists through A and B an experiment created through C", async () => {
    const id = (await c.post<{ experiment_id: string }>("experiments/create", { name: "from-c" })).body.experiment_id;
    const list = await preview.get<{ experiments: Array<{ experiment_id: number; name: string }> }>("experiments/list");
    expect(list.body.experiments).toContainEqual(
      expect.objectContaining({ experiment_id: Number(id), name: "from-c" }),
    );
  });

  it("keeps parent_run_id (B) as the parentRunId tag", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "parents" })).body
      .experiment_id;
    const parent = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info
      .run_uuid;
    const child = await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp, parent_run_id: parent });
    expect(child.body.run.data.tags).toContainEqual({ key: "tracker.parentRunId", value: parent });
  });

  it("returns the last LOGGED metric value in A/B and the latest-timestamp value in C", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "latest-rules" })).body
      .experiment_id;
    const runId = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info
      .run_uuid;
    // Logged in this order: the last logged has the oldest timestamp.
    for (const [value, timestamp] of [
      [1, 100],
      [3, 300],
      [2, 300],
      [0.5, 50],
    ]) {
      expect((await preview.post("runs/log-metric", { run_uuid: runId, key: "m", value, timestamp })).status).toBe(200);
    }
    const runAB = await preview.get<{ run: PreviewRun }>("runs/get", { run_uuid: runId });
    expect(runAB.body.run.data.metrics).toEqual([{ key: "m", value: 0.5, timestamp: 50 }]);
    const metricAB = await preview.get<{ metric: { value: number } }>("metrics/get", {
      run_uuid: runId,
      metric_key: "m",
    });
    expect(metricAB.body.metric.value).toBe(0.5);
    const runC = await c.get<{ run: { data: { metrics: Array<{ value: number; timestamp: number }> } } }>("runs/get", {
      run_id: runId,
    });
    expect(runC.body.run.data.metrics).toEqual([{ key: "m", value: 3, timestamp: 300, step: 0 }]);
    const history = await preview.get<{ metrics: unknown[] }>("metrics/get-history", {
      run_uuid: runId,
      metric_key: "m",
    });
    expect(history.body.metrics).toHaveLength(4);
    expect((await preview.get("metrics/get", { run_uuid: runId, metric_key: "nope" })).status).toBe(404);
  });

  it("logs and gets params; B's limits hold", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "params-ab" })).body
      .experiment_id;
    const runId = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info
      .run_uuid;
    expect((await preview.post("runs/log-parameter", { run_uuid: runId, key: "lr", value: "0.1" })).status).toBe(200);
    const got = await preview.get<{ parameter: { key: string; value: string } }>("params/get", {
      run_uuid: runId,
      param_name: "lr",
    });
    expect(got.body.parameter).toEqual({ key: "lr", value: "0.1" });
    expect((await preview.get("params/get", { run_uuid: runId, param_name: "nope" })).status).toBe(404);
    expect(
      (await preview.post("runs/log-parameter", { run_uuid: runId, key: "k".repeat(255), value: "v".repeat(500) }))
        .status,
    ).toBe(200);
    expect(
      (await preview.post("runs/log-parameter", { run_uuid: runId, key: "k".repeat(256), value: "v" })).status,
    ).toBe(400);
    expect(
      (await preview.post("runs/log-parameter", { run_uuid: runId, key: "x", value: "v".repeat(501) })).status,
    ).toBe(400);
    expect(
      (await preview.post("runs/set-tag", { run_uuid: runId, key: "t".repeat(255), value: "v".repeat(5000) })).status,
    ).toBe(200);
    expect((await preview.post("runs/set-tag", { run_uuid: runId, key: "t".repeat(256), value: "v" })).status).toBe(
      400,
    );
    expect((await preview.post("runs/set-tag", { run_uuid: runId, key: "t", value: "v".repeat(5001) })).status).toBe(
      400,
    );
  });

  it("rejects a non-integer experiment id with 400 INVALID_PARAMETER_VALUE", async () => {
    for (const bad of ["abc", "1.5"]) {
      const res = await preview.get("experiments/get", { experiment_id: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    }
    const res = await preview.post("runs/create", { experiment_id: "x1" });
    expect(res.status).toBe(400);
  });

  it("deletes and restores experiments and runs through B, honouring view types", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "b-lifecycle" })).body
      .experiment_id;
    const runId = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info
      .run_uuid;
    expect((await preview.post("runs/delete", { run_id: runId })).status).toBe(200);
    let search = await preview.post<{ runs: PreviewRun[] }>("runs/search", {
      experiment_ids: [exp],
      run_view_type: "DELETED_ONLY",
    });
    expect(search.body.runs.map((r) => r.info.run_uuid)).toEqual([runId]);
    expect((await preview.post("runs/restore", { run_id: runId })).status).toBe(200);
    expect((await preview.post("experiments/delete", { experiment_id: exp })).status).toBe(200);
    const deleted = await preview.get<{ experiments: Array<{ experiment_id: number }> }>("experiments/list", {
      view_type: "DELETED_ONLY",
    });
    expect(deleted.body.experiments.map((e) => e.experiment_id)).toContain(exp);
    expect((await preview.post("experiments/restore", { experiment_id: exp })).status).toBe(200);
    search = await preview.post<{ runs: PreviewRun[] }>("runs/search", { experiment_ids: [exp] });
    expect(search.body.runs.map((r) => r.info.run_uuid)).toEqual([runId]);
  });

  it("searches with anded_expressions: float (A), double (B) and string clauses", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "anded" })).body
      .experiment_id;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp, start_time: 1000 + i }))
        .body.run.info.run_uuid;
      ids.push(id);
      await preview.post("runs/log-metric", { run_uuid: id, key: "acc", value: i / 10, timestamp: 1 });
      await preview.post("runs/log-parameter", { run_uuid: id, key: "model", value: i % 2 ? "resnet-50" : "vgg-16" });
    }
    const search = async (anded_expressions: unknown[]) => {
      const res = await preview.post<{ runs: PreviewRun[] }>("runs/search", {
        experiment_ids: [exp],
        anded_expressions,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.runs.map((r) => r.info.run_uuid);
    };
    expect(await search([{ metric: { key: "acc", float: { comparator: ">=", value: 0.2 } } }])).toEqual([
      ids[3],
      ids[2],
    ]);
    expect(await search([{ metric: { key: "acc", double: { comparator: "<", value: 0.2 } } }])).toEqual([
      ids[1],
      ids[0],
    ]);
    expect(await search([{ parameter: { key: "model", string: { comparator: "~", value: "net" } } }])).toEqual([
      ids[3],
      ids[1],
    ]);
    expect(
      await search([
        { parameter: { key: "model", string: { comparator: "!=", value: "vgg-16" } } },
        { metric: { key: "acc", double: { comparator: "==", value: 0.3 } } },
      ]),
    ).toEqual([ids[3]]);
    const bad = await preview.post("runs/search", {
      experiment_ids: [exp],
      anded_expressions: [{ metric: { key: "acc", float: { comparator: "=~", value: 1 } } }],
    });
    expect(bad.status).toBe(400);
  });

  it("updates a run through A and returns its run_info", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "updates" })).body
      .experiment_id;
    const runId = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info
      .run_uuid;
    const res = await preview.post<{ run_info: PreviewRunInfo }>("runs/update", {
      run_uuid: runId,
      status: "KILLED",
      end_time: 1700000000001,
    });
    expect(res.status).toBe(200);
    expect(res.body.run_info).toMatchObject({ run_uuid: runId, status: "KILLED", end_time: 1700000000001 });
  });

  it("lists and streams artifacts (A), refusing traversal and answering 404 for a missing file", async () => {
    const exp = (await preview.post<{ experiment_id: number }>("experiments/create", { name: "artifacts-a" })).body
      .experiment_id;
    const run = (await preview.post<{ run: PreviewRun }>("runs/create", { experiment_id: exp })).body.run.info;
    fs.mkdirSync(path.join(run.artifact_uri, "plots"), { recursive: true });
    fs.writeFileSync(path.join(run.artifact_uri, "plots", "loss.json"), '{"a":1}');
    const list = await preview.get<{ files: unknown[] }>("artifacts/list", { run_uuid: run.run_uuid, path: "plots" });
    expect(list.body.files).toEqual([{ path: "plots/loss.json", is_dir: false, file_size: 7 }]);
    const response = await fetch(
      `${suite.url}/api/2.0/preview/tracker/artifacts/get?run_uuid=${run.run_uuid}&path=plots/loss.json`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/); // as MLflow serves .json artifacts
    expect(response.headers.get("content-length")).toBe("7");
    expect(await response.text()).toBe('{"a":1}');
    const missing = await preview.get("artifacts/get", { run_uuid: run.run_uuid, path: "plots/nope.json" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
    for (const bad of ["../../../etc/passwd", "/etc/passwd", "plots/../../x", "..%2F..%2Fetc%2Fpasswd"]) {
      const res = await fetch(
        `${suite.url}/api/2.0/preview/tracker/artifacts/get?run_uuid=${run.run_uuid}&path=${bad.includes("%") ? bad : encodeURIComponent(bad)}`,
      );
      expect(res.status, bad).toBe(400);
    }
  });
});
