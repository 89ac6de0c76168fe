import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiAt, testDatabases, useTestServer } from "@tracker/testing";

/**
 * The cases MLflow 1.30's REST suite (tests/tracking/test_rest_tracking.py) failed on, through
 * MLflow's paths. Where current MLflow answers differently from 1.30, the test follows current
 * MLflow and says so.
 */

const SEE_DOCS = "See the API docs for more information about request parameters.";

describe.each(testDatabases())("MLflow 1.30 REST suite cases on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");

  const expectInvalid = (res: { status: number; body: unknown }, message: string) => {
    expect(res.body).toEqual({ error_code: "INVALID_PARAMETER_VALUE", message });
    expect(res.status).toBe(400);
  };

  it("test_create_experiment_validation: a float artifact_location is named as Python writes it", async () => {
    expectInvalid(
      await mlflow.post("experiments/create", '{"name": "foo", "artifact_location": 9.0}'),
      `Invalid value 9.0 for parameter 'artifact_location' supplied. Hint: Value was of type 'float'. ${SEE_DOCS}`,
    );
    expectInvalid(
      await mlflow.post("experiments/create", '{"name": "foo", "artifact_location": 1.5e-5}'),
      `Invalid value 1.5e-05 for parameter 'artifact_location' supplied. Hint: Value was of type 'float'. ${SEE_DOCS}`,
    );
    // An integer stays an int.
    expectInvalid(
      await mlflow.post("experiments/create", '{"name": "foo", "artifact_location": 9}'),
      `Invalid value 9 for parameter 'artifact_location' supplied. Hint: Value was of type 'int'. ${SEE_DOCS}`,
    );
  });

  it("test_set_tag_validation / test_delete_tag: a null field is a missing one", async () => {
    const runId = (await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: "0" })).body
      .run.info.run_id;
    expectInvalid(
      await mlflow.post("runs/set-tag", { run_id: null, key: "k", value: "v" }),
      `Missing value for required parameter 'run_id'. ${SEE_DOCS}`,
    );
    expectInvalid(
      await mlflow.post("runs/delete-tag", { run_id: runId, key: null }),
      `Missing value for required parameter 'key'. ${SEE_DOCS}`,
    );
    // A null optional field is ignored, as MLflow's protobuf parsing does.
    const created = await mlflow.post("experiments/create", { name: "null-location", artifact_location: null });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });

  it("test_get_model_version: a version that is not an integer, however long, says so", async () => {
    await mlflow.post("registered-models/create", { name: "GetModelVersionTest" });
    for (const version of ["something not correct", "x".repeat(100)]) {
      expectInvalid(
        await mlflow.get("model-versions/get", { name: "GetModelVersionTest", version }),
        "Model version must be an integer",
      );
    }
  });

  it("test_search_experiments: the default order is current MLflow's creation_time DESC, experiment_id ASC (1.30: last_update_time DESC)", async () => {
    const ids: string[] = [];
    for (const name of ["order-a", "order-b", "order-c"]) {
      ids.push((await mlflow.post<{ experiment_id: string }>("experiments/create", { name })).body.experiment_id);
    }
    // Touching the oldest would put it first under 1.30's last_update_time DESC.
    await mlflow.post("experiments/update", { experiment_id: ids[0], new_name: "order-a2" });
    const found = await mlflow.post<{ experiments: Array<{ experiment_id: string }> }>("experiments/search", {
      filter: "name LIKE 'order-%'",
    });
    expect(found.body.experiments.map((e) => e.experiment_id)).toEqual([...ids].reverse());
  });
});

describe.each(testDatabases())("MLflow 2.x/3.x operations through MLflow's paths on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const ajax = apiAt(() => suite.url, "../ajax-api/2.0/mlflow");

  it("delete-experiment-tag, search-datasets (MLflow's UI path) and /version", async () => {
    const id = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "ops" })).body.experiment_id;
    await mlflow.post("experiments/set-experiment-tag", { experiment_id: id, key: "k", value: "v" });
    expect((await mlflow.post("experiments/delete-experiment-tag", { experiment_id: id, key: "k" })).status).toBe(200);
    const tags = (await mlflow.get<{ experiment: { tags?: unknown[] } }>("experiments/get", { experiment_id: id })).body
      .experiment.tags;
    expect(tags ?? []).toEqual([]);
    await mlflow.post("experiments/set-experiment-tag", { experiment_id: id, key: "k", value: "v" });
    await mlflow.post("experiments/delete", { experiment_id: id });
    const refused = await mlflow.post("experiments/delete-experiment-tag", { experiment_id: id, key: "k" });
    expect(refused.body).toEqual({
      error_code: "INVALID_PARAMETER_VALUE",
      message: `The experiment ${id} must be in the 'active' state. Current state is deleted.`,
    });

    const run = (await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: "0" })).body
      .run.info.run_id;
    await mlflow.post("runs/log-inputs", {
      run_id: run,
      datasets: [
        {
          dataset: { name: "d", digest: "x", source_type: "local", source: "{}" },
          tags: [{ key: "mlflow.data.context", value: "eval" }],
        },
      ],
    });
    const found = await ajax.post("experiments/search-datasets", { experiment_ids: ["0"] });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toEqual({
      dataset_summaries: [{ experiment_id: "0", name: "d", digest: "x", context: "eval" }],
    });
    const tooMany = await ajax.post("experiments/search-datasets", {
      experiment_ids: Array.from({ length: 21 }, (_, i) => String(i)),
    });
    expect(tooMany.body).toMatchObject({
      message: "SearchDatasets request cannot specify more than 20 experiment_ids. Received 21 experiment_ids.",
    });

    const version = await fetch(`${suite.url}/version`);
    expect(version.status).toBe(200);
    expect(await version.text()).toBe("3.3.2");
  });
});

describe("MLflow 1.30 REST suite: --default-artifact-root file:///...", () => {
  // Both servers start in hooks: the test's time is its own requests, not two cold starts.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-file-root-"));
  const uri = useTestServer("pglite", { artifactRoot: `file://${root}` });
  const plain = useTestServer("pglite", { artifactRoot: root });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("answers experiments' artifact_location as file:// URIs", async () => {
    const mlflow = apiAt(uri.url, "2.0/mlflow");
    const id = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "uri" })).body.experiment_id;
    const got = await mlflow.get<{ experiment: { artifact_location: string } }>("experiments/get", {
      experiment_id: id,
    });
    expect(got.body.experiment.artifact_location).toBe(`file://${root}/${id}`);
    const run = await mlflow.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", {
      experiment_id: id,
    });
    expect(run.body.run.info.artifact_uri).toBe(`file://${root}/${id}/${run.body.run.info.run_id}/artifacts`);
    // A plain folder keeps plain paths.
    const plainId = (
      await apiAt(plain.url, "2.0/mlflow").post<{ experiment_id: string }>("experiments/create", { name: "p" })
    ).body.experiment_id;
    const plainGot = await apiAt(plain.url, "2.0/mlflow").get<{ experiment: { artifact_location: string } }>(
      "experiments/get",
      { experiment_id: plainId },
    );
    expect(plainGot.body.experiment.artifact_location).toBe(path.join(root, plainId));
  });
});
