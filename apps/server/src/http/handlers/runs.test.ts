import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

interface RunInfo {
  run_id: string;
  run_uuid: string;
  run_name: string;
  experiment_id: string;
  user_id: string;
  status: string;
  start_time: number;
  end_time?: number;
  artifact_uri: string;
  lifecycle_stage: string;
}
interface Run {
  info: RunInfo;
  data: {
    metrics: Array<{ key: string; value: number | string; timestamp: number; step: number }>;
    params: Array<{ key: string; value: string }>;
    tags: Array<{ key: string; value: string }>;
  };
}

describe.each(testDatabases())("revision C runs on %s", (kind) => {
  const suite = useTestServer(kind);
  const { api } = suite;
  let experimentId: string;
  beforeAll(async () => {
    experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "runs-exp" })).body
      .experiment_id;
  });

  const createRun = async (extra: Record<string, unknown> = {}) => {
    const res = await api.post<{ run: Run }>("runs/create", { experiment_id: experimentId, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.run;
  };

  it("creates a run with name, user, start time and tags", async () => {
    const run = await createRun({
      run_name: "first",
      user_id: "ada",
      start_time: "1700000000000",
      tags: [{ key: "t", value: "1" }],
    });
    expect(run.info).toMatchObject({
      run_name: "first",
      experiment_id: experimentId,
      user_id: "ada",
      status: "RUNNING",
      start_time: 1700000000000,
      lifecycle_stage: "active",
    });
    expect(run.info.run_id).toMatch(/^[0-9a-f]{32}$/);
    expect(run.info.run_uuid).toBe(run.info.run_id);
    expect(run.info.end_time).toBeUndefined();
    expect(run.info.artifact_uri).toBe(`mlflow-artifacts:/${experimentId}/${run.info.run_id}/artifacts`);
    expect(run.data.tags).toEqual(
      expect.arrayContaining([
        { key: "t", value: "1" },
        { key: "tracker.user", value: "ada" },
        { key: "tracker.runName", value: "first" },
      ]),
    );
  });

  it("generates a run name when none is given and mirrors it in the tag", async () => {
    const run = await createRun();
    expect(run.info.run_name).toMatch(/^[a-z]+-[a-z]+-\d{1,3}$/);
    expect(run.data.tags).toContainEqual({ key: "tracker.runName", value: run.info.run_name });
  });

  it("refuses a run in an unknown experiment", async () => {
    const res = await api.post("runs/create", { experiment_id: "99999" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("gets a run by run_id or the deprecated run_uuid; 404 for an unknown one; 400 without either", async () => {
    const run = await createRun();
    for (const field of ["run_id", "run_uuid"]) {
      const res = await api.get<{ run: Run }>("runs/get", { [field]: run.info.run_id });
      expect(res.status).toBe(200);
      expect(res.body.run.info.run_id).toBe(run.info.run_id);
    }
    const missing = await api.get("runs/get", { run_id: "0".repeat(32) });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
    const none = await api.get("runs/get", {});
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
  });

  it("updates status, end_time and run_name", async () => {
    const run = await createRun();
    const res = await api.post<{ run_info: RunInfo }>("runs/update", {
      run_id: run.info.run_id,
      status: "FINISHED",
      end_time: 1700000009999,
      run_name: "renamed",
    });
    expect(res.status).toBe(200);
    expect(res.body.run_info).toMatchObject({ status: "FINISHED", end_time: 1700000009999, run_name: "renamed" });
    const got = await api.get<{ run: Run }>("runs/get", { run_id: run.info.run_id });
    expect(got.body.run.data.tags).toContainEqual({ key: "tracker.runName", value: "renamed" });
    // Any status may follow any other.
    const back = await api.post<{ run_info: RunInfo }>("runs/update", { run_id: run.info.run_id, status: "RUNNING" });
    expect(back.body.run_info.status).toBe("RUNNING");
    const bogus = await api.post("runs/update", { run_id: run.info.run_id, status: "BOGUS" });
    expect(bogus.status).toBe(400);
  });

  it("deletes and restores a run; a deleted run takes no writes", async () => {
    const run = await createRun();
    const id = run.info.run_id;
    expect((await api.post("runs/delete", { run_id: id })).status).toBe(200);
    let got = await api.get<{ run: Run }>("runs/get", { run_id: id });
    expect(got.body.run.info.lifecycle_stage).toBe("deleted");
    for (const [op, body] of [
      ["runs/log-metric", { run_id: id, key: "m", value: 1, timestamp: 1 }],
      ["runs/log-parameter", { run_id: id, key: "p", value: "1" }],
      ["runs/set-tag", { run_id: id, key: "t", value: "1" }],
      ["runs/update", { run_id: id, status: "FINISHED" }],
      ["runs/log-batch", { run_id: id, metrics: [{ key: "m", value: 1, timestamp: 1 }] }],
    ] as const) {
      const res = await api.post(op, body);
      expect(res.status, op).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    }
    expect((await api.post("runs/restore", { run_id: id })).status).toBe(200);
    got = await api.get<{ run: Run }>("runs/get", { run_id: id });
    expect(got.body.run.info.lifecycle_stage).toBe("active");
    expect((await api.post("runs/delete", { run_id: "f".repeat(32) })).status).toBe(404);
    expect((await api.post("runs/restore", { run_id: "f".repeat(32) })).status).toBe(404);
  });

  it("searches runs by filter and order_by, with run_view_type", async () => {
    const exp = (await api.post<{ experiment_id: string }>("experiments/create", { name: "search-exp" })).body
      .experiment_id;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const run = (await api.post<{ run: Run }>("runs/create", { experiment_id: exp, start_time: 1000 + i })).body.run;
      ids.push(run.info.run_id);
      await api.post("runs/log-batch", {
        run_id: run.info.run_id,
        metrics: [{ key: "acc", value: i / 10, timestamp: 1 }],
        params: [{ key: "lr", value: i % 2 ? "0.1" : "0.01" }],
      });
    }
    await api.post("runs/delete", { run_id: ids[0] });
    const res = await api.post<{ runs: Run[] }>("runs/search", {
      experiment_ids: [exp],
      filter: "metrics.acc >= 0.1 and params.lr = '0.1'",
      order_by: ["metrics.acc DESC"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.runs.map((r) => r.info.run_id)).toEqual([ids[3], ids[1]]);
    const deflt = await api.post<{ runs: Run[] }>("runs/search", { experiment_ids: [exp] });
    expect(deflt.body.runs.map((r) => r.info.run_id)).toEqual([ids[3], ids[2], ids[1]]);
    const deleted = await api.post<{ runs: Run[] }>("runs/search", {
      experiment_ids: [exp],
      run_view_type: "DELETED_ONLY",
    });
    expect(deleted.body.runs.map((r) => r.info.run_id)).toEqual([ids[0]]);
    const bad = await api.post<{ message: string }>("runs/search", { experiment_ids: [exp], filter: "metrics.acc >" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/position/i);
    const tooMany = await api.post("runs/search", { experiment_ids: [exp], max_results: 50001 });
    expect(tooMany.status).toBe(400);
    expect((await api.post("runs/search", { experiment_ids: [exp], max_results: 50000 })).status).toBe(200);
  });

  it("pages through 2,500 runs with max_results 1000, each exactly once", async () => {
    const exp = (await api.post<{ experiment_id: string }>("experiments/create", { name: "paging-runs" })).body
      .experiment_id;
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      run_uuid: i.toString(16).padStart(32, "0"),
      experiment_id: Number(exp),
      run_name: `r${i}`,
      start_time: 1000 + (i % 700),
      artifact_uri: `/tmp/${i}`,
    }));
    for (let i = 0; i < rows.length; i += 500) await suite.server.database.knex("runs").insert(rows.slice(i, i + 500));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await api.post<{ runs: Run[]; next_page_token?: string }>("runs/search", {
        experiment_ids: [exp],
        max_results: 1000,
        ...(token ? { page_token: token } : {}),
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.runs.map((r) => r.info.run_id));
      token = res.body.next_page_token;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);
  });
});
