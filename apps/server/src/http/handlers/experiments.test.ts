import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

interface Experiment {
  experiment_id: string;
  name: string;
  artifact_location: string;
  lifecycle_stage: string;
  creation_time: number;
  last_update_time: number;
  tags: Array<{ key: string; value: string }>;
}

describe.each(testDatabases())("revision C experiments on %s", (kind) => {
  const suite = useTestServer(kind);
  const { api } = suite;

  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post<{ experiment_id: string }>("experiments/create", { name, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.experiment_id;
  };

  it("has the Default experiment with id 0", async () => {
    const res = await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: "0" });
    expect(res.status).toBe(200);
    expect(res.body.experiment).toMatchObject({ experiment_id: "0", name: "Default", lifecycle_stage: "active" });
  });

  it("creates an experiment with tags and a default artifact location, and reads it back", async () => {
    const before = Date.now();
    const id = await create("exp-create", { tags: [{ key: "team", value: "vision" }] });
    expect(id).toMatch(/^[0-9]+$/);
    const res = await api.get<{ experiment: Experiment; runs: unknown[] }>("experiments/get", { experiment_id: id });
    expect(res.body.experiment).toMatchObject({
      experiment_id: id,
      name: "exp-create",
      lifecycle_stage: "active",
      tags: [{ key: "team", value: "vision" }],
    });
    expect(res.body.experiment.artifact_location).toBe(`mlflow-artifacts:/${id}`);
    expect(res.body.experiment.creation_time).toBeGreaterThanOrEqual(before);
    expect(res.body.runs).toEqual([]);
  });

  it("keeps a given artifact location", async () => {
    const id = await create("exp-location", { artifact_location: "/data/elsewhere" });
    const res = await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id });
    expect(res.body.experiment.artifact_location).toBe("/data/elsewhere");
  });

  it("refuses a taken name with RESOURCE_ALREADY_EXISTS", async () => {
    await create("exp-dup");
    const res = await api.post("experiments/create", { name: "exp-dup" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "RESOURCE_ALREADY_EXISTS" });
  });

  it("enforces the name limits: 500 characters pass, 501 and empty do not", async () => {
    expect((await api.post("experiments/create", { name: "n".repeat(500) })).status).toBe(200);
    for (const name of ["n".repeat(501), ""]) {
      const res = await api.post("experiments/create", { name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    }
  });

  it("answers RESOURCE_DOES_NOT_EXIST for an unknown id", async () => {
    const res = await api.get("experiments/get", { experiment_id: "987654" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("gets by name, including deleted experiments, preferring the active one", async () => {
    const first = await create("exp-byname");
    expect((await api.post("experiments/delete", { experiment_id: first })).status).toBe(200);
    let res = await api.get<{ experiment: Experiment }>("experiments/get-by-name", { experiment_name: "exp-byname" });
    expect(res.status).toBe(200);
    expect(res.body.experiment).toMatchObject({ experiment_id: first, lifecycle_stage: "deleted" });
    const second = await create("exp-byname");
    res = await api.get<{ experiment: Experiment }>("experiments/get-by-name", { experiment_name: "exp-byname" });
    expect(res.body.experiment).toMatchObject({ experiment_id: second, lifecycle_stage: "active" });
    const missing = await api.get("experiments/get-by-name", { experiment_name: "no-such-experiment" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("deletes and restores an experiment with its runs", async () => {
    const id = await create("exp-lifecycle");
    const run = await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: id });
    const runId = run.body.run.info.run_id;
    const alone = await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: id });
    await api.post("runs/delete", { run_id: alone.body.run.info.run_id });

    expect((await api.post("experiments/delete", { experiment_id: id })).status).toBe(200);
    let got = await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id });
    expect(got.body.experiment.lifecycle_stage).toBe("deleted");
    let runRes = await api.get<{ run: { info: { lifecycle_stage: string } } }>("runs/get", { run_id: runId });
    expect(runRes.body.run.info.lifecycle_stage).toBe("deleted");
    // Deleting twice: the experiment is no longer active.
    expect((await api.post("experiments/delete", { experiment_id: id })).status).toBe(404);
    // A deleted experiment takes no new runs and cannot be renamed.
    const newRun = await api.post("runs/create", { experiment_id: id });
    expect(newRun.status).toBe(400);
    expect(newRun.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const rename = await api.post("experiments/update", { experiment_id: id, new_name: "renamed-deleted" });
    expect(rename.body).toMatchObject({ error_code: "INVALID_STATE" });

    expect((await api.post("experiments/restore", { experiment_id: id })).status).toBe(200);
    got = await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id });
    expect(got.body.experiment.lifecycle_stage).toBe("active");
    runRes = await api.get<{ run: { info: { lifecycle_stage: string } } }>("runs/get", { run_id: runId });
    expect(runRes.body.run.info.lifecycle_stage).toBe("active");
    // The run deleted on its own before stays deleted.
    const aloneRes = await api.get<{ run: { info: { lifecycle_stage: string } } }>("runs/get", {
      run_id: alone.body.run.info.run_id,
    });
    expect(aloneRes.body.run.info.lifecycle_stage).toBe("deleted");
  });

  it("answers RESOURCE_DOES_NOT_EXIST when restoring an experiment that never existed", async () => {
    const res = await api.post("experiments/restore", { experiment_id: "424242" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("renames, refusing a taken name, and moves last_update_time", async () => {
    const id = await create("exp-rename");
    await create("exp-rename-taken");
    const before = (await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id })).body
      .experiment;
    await new Promise((r) => setTimeout(r, 5));
    expect((await api.post("experiments/update", { experiment_id: id, new_name: "exp-renamed" })).status).toBe(200);
    const after = (await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id })).body.experiment;
    expect(after.name).toBe("exp-renamed");
    expect(after.last_update_time).toBeGreaterThan(before.last_update_time);
    const taken = await api.post("experiments/update", { experiment_id: id, new_name: "exp-rename-taken" });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ error_code: "RESOURCE_ALREADY_EXISTS" });
    expect((await api.post("experiments/update", { experiment_id: "555555", new_name: "x" })).status).toBe(404);
  });

  it("moves last_update_time on delete, restore, rename and tag changes (as MLflow does)", async () => {
    const id = await create("exp-touch");
    const lastUpdate = async () =>
      (await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id })).body.experiment
        .last_update_time;
    const steps: Array<[string, Record<string, unknown>]> = [
      ["experiments/set-experiment-tag", { experiment_id: id, key: "k", value: "v" }],
      ["experiments/delete", { experiment_id: id }],
      ["experiments/restore", { experiment_id: id }],
      ["experiments/update", { experiment_id: id, new_name: "exp-touched" }],
    ];
    for (const [op, body] of steps) {
      const before = await lastUpdate();
      await new Promise((r) => setTimeout(r, 5));
      expect((await api.post(op, body)).status, op).toBe(200);
      expect(await lastUpdate(), op).toBeGreaterThan(before);
    }
  });

  it("sets experiment tags, overwriting by key, within the limits", async () => {
    const id = await create("exp-tags");
    await api.post("experiments/set-experiment-tag", { experiment_id: id, key: "k", value: "v1" });
    await api.post("experiments/set-experiment-tag", { experiment_id: id, key: "k", value: "v2" });
    const got = await api.get<{ experiment: Experiment }>("experiments/get", { experiment_id: id });
    expect(got.body.experiment.tags).toEqual([{ key: "k", value: "v2" }]);
    expect(
      (await api.post("experiments/set-experiment-tag", { experiment_id: id, key: "big", value: "v".repeat(5000) }))
        .status,
    ).toBe(200);
    const tooBig = await api.post("experiments/set-experiment-tag", {
      experiment_id: id,
      key: "big",
      value: "v".repeat(5001),
    });
    expect(tooBig.status).toBe(400);
    const badKey = await api.post("experiments/set-experiment-tag", { experiment_id: id, key: "../etc", value: "v" });
    expect(badKey.status).toBe(400);
    const missing = await api.post("experiments/set-experiment-tag", { experiment_id: "777777", key: "k", value: "v" });
    expect(missing.status).toBe(404);
  });

  it("lists and searches with view_type, filter, order_by and paging", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await create(`paging-${i}`, { tags: [{ key: "group", value: i % 2 ? "odd" : "even" }] }));
    await api.post("experiments/delete", { experiment_id: ids[4] });

    const seen: string[] = [];
    let token: string | undefined;
    do {
      const res = await api.post<{ experiments: Experiment[]; next_page_token?: string }>("experiments/search", {
        filter: "name LIKE 'paging-%'",
        order_by: ["name DESC"],
        max_results: 2,
        ...(token ? { page_token: token } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.experiments.map((e) => e.name));
      token = res.body.next_page_token;
    } while (token);
    expect(seen).toEqual(["paging-3", "paging-2", "paging-1", "paging-0"]);

    const even = await api.post<{ experiments: Experiment[] }>("experiments/search", {
      filter: "tags.group = 'even' AND name LIKE 'paging-%'",
      max_results: 100,
    });
    expect(even.body.experiments.map((e) => e.name).sort()).toEqual(["paging-0", "paging-2"]);

    const deleted = await api.get<{ experiments: Experiment[] }>("experiments/list", { view_type: "DELETED_ONLY" });
    expect(deleted.body.experiments.map((e) => e.name)).toContain("paging-4");
    expect(deleted.body.experiments.every((e) => e.lifecycle_stage === "deleted")).toBe(true);
    const all = await api.get<{ experiments: Experiment[] }>("experiments/list", {
      view_type: "ALL",
      max_results: 1000,
    });
    expect(all.body.experiments.map((e) => e.name)).toEqual(
      expect.arrayContaining(["paging-4", "paging-0", "Default"]),
    );

    const bad = await api.post("experiments/search", { filter: "name = ", max_results: 10 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const badToken = await api.post("experiments/search", { page_token: "not-a-token", max_results: 10 });
    expect(badToken.status).toBe(400);
    expect(badToken.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
  });
});
