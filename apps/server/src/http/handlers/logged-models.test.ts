import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, call, testDatabases, useTestServer, type Api } from "@tracker/testing";

interface Metric {
  key: string;
  value: number | string;
  timestamp: number;
  step: number;
  model_id?: string;
  run_id?: string;
  dataset_name?: string;
  dataset_digest?: string;
}
interface LoggedModel {
  info: {
    model_id: string;
    experiment_id: string;
    name: string;
    artifact_uri: string;
    status: string;
    model_type: string;
    source_run_id: string;
    creation_timestamp_ms: number;
    last_updated_timestamp_ms: number;
    tags?: Array<{ key: string; value: string }>;
  };
  data: { params?: Array<{ key: string; value: string }>; metrics?: Metric[] };
}

describe.each(testDatabases())("logged models (MLflow 3) on %s", (kind) => {
  const suite = useTestServer(kind);
  let mlflow: Api;
  let tracker: Api;
  let experimentId: string;
  beforeAll(async () => {
    mlflow = apiAt(suite.url, "2.0/mlflow");
    tracker = apiAt(suite.url, "2.0/tracker");
    experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "logged-models" })).body
      .experiment_id;
  });

  const newRun = async () =>
    (
      await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", {
        experiment_id: experimentId,
        start_time: Date.now(),
      })
    ).body.run.info.run_id;
  const create = (body: Record<string, unknown>) => mlflow.post<{ model: LoggedModel }>("logged-models", body);
  const get = (id: string, query?: Record<string, unknown>) =>
    mlflow.get<{ model: LoggedModel }>(`logged-models/${id}`, query);
  const upload = (path: string, body: string) =>
    fetch(`${suite.url}/api/2.0/mlflow-artifacts/artifacts/${path}`, { method: "PUT", body });

  it("replays mlflow.sklearn.log_model inside a run, then register_model('models:/<id>')", async () => {
    const runId = await newRun();
    await mlflow.post("runs/log-batch", {
      run_id: runId,
      params: [{ key: "alpha", value: "0.5" }],
      metrics: [{ key: "rmse", value: 0.25, timestamp: 1000, step: 0 }],
    });
    // 1. runs/get for the run's params; 2. create with them and the context tags.
    const created = await create({
      experiment_id: experimentId,
      name: "m",
      source_run_id: runId,
      params: [{ key: "alpha", value: "0.5" }],
      tags: [{ key: "mlflow.user", value: "alice" }],
    });
    expect(created.status).toBe(200);
    const model = created.body.model;
    const id = model.info.model_id;
    expect(id).toMatch(/^m-[0-9a-f]{32}$/);
    expect(model.info).toMatchObject({
      experiment_id: experimentId,
      name: "m",
      status: "LOGGED_MODEL_PENDING",
      model_type: "",
      source_run_id: runId,
      artifact_uri: `mlflow-artifacts:/${experimentId}/models/${id}/artifacts`,
      tags: [{ key: "mlflow.user", value: "alice" }],
    });
    expect(model.info.creation_timestamp_ms).toBe(model.info.last_updated_timestamp_ms);
    expect(model.data).toEqual({ params: [{ key: "alpha", value: "0.5" }] });
    // 3. the run's output: the model, at step 0 (runs/outputs).
    const outputs = await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: id, step: 0 }] });
    expect(outputs.status).toBe(200);
    const withOutputs = await mlflow.get<{ run: { outputs?: { model_outputs?: unknown[] } } }>("runs/get", {
      run_id: runId,
    });
    expect(withOutputs.body.run.outputs).toEqual({ model_outputs: [{ model_id: id, step: 0 }] });
    // 4. metric re-log with the model id: history, then log-batch.
    const history = await mlflow.get<{ metrics: Metric[] }>("metrics/get-history", {
      run_uuid: runId,
      run_id: runId,
      metric_key: "rmse",
    });
    expect(history.body.metrics).toEqual([{ key: "rmse", value: 0.25, timestamp: 1000, step: 0 }]);
    const relog = await mlflow.post("runs/log-batch", {
      run_id: runId,
      metrics: [{ key: "rmse", value: 0.25, timestamp: 1000, step: 0, model_id: id }],
    });
    expect(relog.status).toBe(200);
    // 6. artifact uploads below the model's artifact path, through the artifact service.
    const base = `${experimentId}/models/${id}/artifacts`;
    for (const [file, text] of [
      ["MLmodel", `artifact_path: mlflow-artifacts:/${base}\nmodel_id: ${id}\n`],
      ["model.pkl", "pickle"],
      ["conda.yaml", "name: env"],
      ["python_env.yaml", "python: 3.12"],
      ["requirements.txt", "scikit-learn"],
    ] as const) {
      expect((await upload(`${base}/${file}`, text)).status).toBe(200);
    }
    const fetched = await get(id);
    expect(fetched.body.model.data.metrics).toEqual([
      { key: "rmse", value: 0.25, timestamp: 1000, step: 0, model_id: id, run_id: runId },
    ]);
    // 9. finalize (the id in the body and the path).
    const finalized = await mlflow.patch<{ model: LoggedModel }>(`logged-models/${id}`, {
      model_id: id,
      status: "LOGGED_MODEL_READY",
    });
    expect(finalized.status).toBe(200);
    expect(finalized.body.model.info.status).toBe("LOGGED_MODEL_READY");
    expect(finalized.body.model.info.last_updated_timestamp_ms).toBeGreaterThanOrEqual(
      model.info.last_updated_timestamp_ms,
    );
    const listed = await mlflow.get<{ root_uri: string; files: Array<{ path: string; is_dir: boolean }> }>(
      `logged-models/${id}/artifacts/directories`,
    );
    expect(listed.body.root_uri).toBe(model.info.artifact_uri);
    expect(listed.body.files.map((f) => f.path).sort()).toEqual([
      "MLmodel",
      "conda.yaml",
      "model.pkl",
      "python_env.yaml",
      "requirements.txt",
    ]);

    // The UI's download of one file (MLflow serves it below /ajax-api only).
    const file = await fetch(
      `${suite.url}/ajax-api/2.0/mlflow/logged-models/${id}/artifacts/files?artifact_file_path=model.pkl`,
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("model.pkl");
    expect(await file.text()).toBe("pickle");
    const noPath = await call(suite.url, "GET", `/ajax-api/2.0/mlflow/logged-models/${id}/artifacts/files`);
    expect(noPath.body).toEqual({
      error_code: "BAD_REQUEST",
      message: 'Request must include the "artifact_file_path" query parameter.',
    });

    // register_model("models:/<id>", "reg")
    await mlflow.post("registered-models/create", { name: "reg" });
    const version = await mlflow.post<{ model_version: Record<string, unknown> }>("model-versions/create", {
      name: "reg",
      source: `models:/${id}`,
      model_id: id,
    });
    expect(version.status).toBe(200);
    expect(version.body.model_version).toMatchObject({
      name: "reg",
      version: "1",
      source: `models:/${id}`,
      run_id: runId,
      status: "READY",
    });
    const uri = await mlflow.get<{ artifact_uri: string }>("model-versions/get-download-uri", {
      name: "reg",
      version: "1",
    });
    expect(uri.body.artifact_uri).toBe(model.info.artifact_uri);
    // The client reads the model and appends its own entry to mlflow.modelVersions.
    const tags = (await get(id)).body.model.info.tags ?? [];
    const versions = tags.find((t) => t.key === "mlflow.modelVersions");
    expect(JSON.parse(versions?.value ?? "[]")).toEqual([{ name: "reg", version: 1 }]);
    const appended = JSON.stringify([...JSON.parse(versions?.value ?? "[]"), { name: "reg", version: "1" }]);
    expect(
      (await mlflow.patch(`logged-models/${id}/tags`, { tags: [{ key: "mlflow.modelVersions", value: appended }] }))
        .status,
    ).toBe(200);

    // Deleting the logged model leaves the version and its download URI alone.
    expect((await mlflow.delete(`logged-models/${id}`, { model_id: id })).status).toBe(200);
    expect((await get(id)).status).toBe(404);
    expect((await get(id, { allow_deleted: "true" })).body.model.info.status).toBe("LOGGED_MODEL_READY");
    expect((await mlflow.get(`logged-models/${id}/artifacts/directories`)).status).toBe(404);
    expect(
      (await mlflow.get<{ artifact_uri: string }>("model-versions/get-download-uri", { name: "reg", version: "1" }))
        .body.artifact_uri,
    ).toBe(model.info.artifact_uri);
    expect((await mlflow.delete(`logged-models/${id}`)).status).toBe(200);
  });

  it("answers MLflow's errors", async () => {
    expect((await create({})).body).toEqual({
      error_code: "INVALID_PARAMETER_VALUE",
      message:
        "Missing value for required parameter 'experiment_id'. See the API docs for more information about request parameters.",
    });
    const missing = await create({ experiment_id: "999999" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: "No Experiment with id=999999 exists" });
    expect((await create({ experiment_id: experimentId, name: "a.b" })).status).toBe(400);
    const duplicate = await create({
      experiment_id: experimentId,
      params: [
        { key: "p", value: "1" },
        { key: "p", value: "2" },
      ],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({ error_code: "BAD_REQUEST" });
    const unknown = await get("m-00000000000000000000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_code: "RESOURCE_DOES_NOT_EXIST",
      message: "Logged model with ID 'm-00000000000000000000000000000000' not found.",
    });
    // GET of the search path is no model (MLflow: 404 too).
    expect((await mlflow.get("logged-models/search")).status).toBe(404);
    const id = (await create({ experiment_id: experimentId })).body.model.info.model_id;
    expect((await get(id)).body.model.info.name).toMatch(/^[a-z]+-[a-z]+-\d+$/);
    expect((await mlflow.patch(`logged-models/${id}`, { status: "LOGGED_MODEL_READY" })).body).toMatchObject({
      message:
        "Missing value for required parameter 'model_id'. See the API docs for more information about request parameters.",
    });
    expect((await mlflow.patch(`logged-models/${id}`, { model_id: id, status: 3 })).body).toMatchObject({
      model: { info: { status: "LOGGED_MODEL_UPLOAD_FAILED" } },
    });
    const tagMissing = await mlflow.delete(`logged-models/${id}/tags/nope`);
    expect(tagMissing.status).toBe(404);
    expect(tagMissing.body).toMatchObject({ message: `No tag with key 'nope' found for model with ID '${id}'.` });
    // Params beyond create's first 100, in batches; a key already there is 400 even with the same value.
    const params = Array.from({ length: 150 }, (_, i) => ({ key: `p${i}`, value: String(i) }));
    expect(
      (await mlflow.post(`logged-models/${id}/params`, { model_id: id, params: params.slice(0, 100) })).status,
    ).toBe(200);
    expect((await mlflow.post(`logged-models/${id}/params`, { model_id: id, params: params.slice(100) })).status).toBe(
      200,
    );
    expect((await get(id)).body.model.data.params).toHaveLength(150);
    const again = await mlflow.post(`logged-models/${id}/params`, { model_id: id, params: [params[0]] });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error_code: "BAD_REQUEST" });
    // A metric for a model that does not exist writes nothing.
    const runId = await newRun();
    const orphan = await mlflow.post("runs/log-metric", {
      run_id: runId,
      key: "x",
      value: 1,
      timestamp: 1,
      model_id: "m-ffffffffffffffffffffffffffffffff",
    });
    expect(orphan.status).toBe(400);
    expect(
      (await mlflow.get<{ metrics?: Metric[] }>("metrics/get-history", { run_id: runId, metric_key: "x" })).body,
    ).toEqual({ metrics: [] });
    const halfDataset = await mlflow.post("runs/log-metric", {
      run_id: runId,
      key: "x",
      value: 1,
      timestamp: 1,
      dataset_name: "train",
    });
    expect(halfDataset.body).toMatchObject({
      message: "Both dataset_name and dataset_digest must be provided if one is provided",
    });
  });

  it("stores a point's model and dataset and answers them in histories on MLflow's paths", async () => {
    const runId = await newRun();
    const id = (await create({ experiment_id: experimentId, source_run_id: runId })).body.model.info.model_id;
    await mlflow.post("runs/log-metric", {
      run_id: runId,
      key: "acc",
      value: 0.9,
      timestamp: 5,
      step: 1,
      model_id: id,
      dataset_name: "eval",
      dataset_digest: "d1",
    });
    const point = { key: "acc", value: 0.9, timestamp: 5, step: 1 };
    const linked = { ...point, dataset_name: "eval", dataset_digest: "d1", model_id: id };
    expect((await mlflow.get("metrics/get-history", { run_id: runId, metric_key: "acc" })).body).toEqual({
      metrics: [linked],
    });
    expect((await tracker.get("metrics/get-history", { run_id: runId, metric_key: "acc" })).body).toEqual({
      metrics: [point],
    });
    expect((await get(id)).body.model.data.metrics).toEqual([{ ...linked, run_id: runId }]);
    expect((await call(suite.url, "GET", `/ajax-api/2.0/mlflow/logged-models/${id}`)).status).toBe(200);
    expect((await tracker.get(`logged-models/${id}`)).status).toBe(200);
  });

  it("searches with filters, datasets, ordering and paging (search_logged_models)", async () => {
    const { body } = await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "lm-search" });
    const exp = body.experiment_id;
    const runId = (
      await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: exp, start_time: 1 })
    ).body.run.info.run_id;
    const ids: string[] = [];
    for (const [i, name] of ["alpha", "beta", "gamma"].entries()) {
      const model = await create({
        experiment_id: exp,
        name,
        source_run_id: runId,
        params: [{ key: "lr", value: String(i) }],
        tags: [{ key: "team", value: i === 1 ? "b" : "a" }],
      });
      const id = model.body.model.info.model_id;
      ids.push(id);
      await mlflow.post("runs/log-batch", {
        run_id: runId,
        metrics: [
          {
            key: "acc",
            value: 0.5 + i / 10,
            timestamp: 10 + i,
            step: 0,
            model_id: id,
            dataset_name: "val",
            dataset_digest: "v1",
          },
          { key: "acc", value: 0.1, timestamp: 1, step: 0, model_id: id, dataset_name: "train", dataset_digest: "t1" },
        ],
      });
    }
    await mlflow.patch(`logged-models/${ids[2]}`, { model_id: ids[2], status: "LOGGED_MODEL_READY" });
    const search = async (request: Record<string, unknown>) => {
      const answer = await mlflow.post<{ models?: LoggedModel[]; next_page_token?: string }>("logged-models/search", {
        experiment_ids: [exp],
        ...request,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { names: (answer.body.models ?? []).map((m) => m.info.name), token: answer.body.next_page_token };
    };
    // Default order: newest first.
    expect((await search({})).names).toEqual(["gamma", "beta", "alpha"]);
    expect((await search({ filter: "name = 'beta'" })).names).toEqual(["beta"]);
    expect((await search({ filter: "attributes.name LIKE 'a%'" })).names).toEqual(["alpha"]);
    expect((await search({ filter: "params.lr IN ('0', '2')" })).names).toEqual(["gamma", "alpha"]);
    expect((await search({ filter: "tags.team = 'b'" })).names).toEqual(["beta"]);
    expect((await search({ filter: "status = 'READY'" })).names).toEqual(["gamma"]);
    expect((await search({ filter: "status != 'READY' AND metrics.acc >= 0.6" })).names).toEqual(["beta"]);
    // Any point counts; with datasets only those on the datasets.
    expect((await search({ filter: "metrics.acc < 0.2" })).names).toEqual(["gamma", "beta", "alpha"]);
    expect(
      (await search({ filter: "metrics.acc < 0.2", datasets: [{ dataset_name: "val", dataset_digest: "v1" }] })).names,
    ).toEqual([]);
    expect((await search({ datasets: [{ dataset_name: "nope" }] })).names).toEqual([]);
    expect((await search({ filter: `source_run_id = '${runId}' AND creation_timestamp_ms > 0` })).names).toHaveLength(
      3,
    );
    // Ordering by the latest point of a metric (the val point is the latest of each model).
    expect((await search({ order_by: [{ field_name: "metrics.acc", ascending: true }] })).names).toEqual([
      "alpha",
      "beta",
      "gamma",
    ]);
    expect(
      (
        await search({
          order_by: [{ field_name: "metrics.acc", ascending: false, dataset_name: "train" }, { field_name: "name" }],
        })
      ).names,
    ).toEqual(["alpha", "beta", "gamma"]);
    expect((await search({ order_by: [{ field_name: "name", ascending: false }] })).names).toEqual([
      "gamma",
      "beta",
      "alpha",
    ]);
    // Paging; a token continues only its own query.
    const first = await search({ max_results: 2, order_by: [{ field_name: "name" }] });
    expect(first.names).toEqual(["alpha", "beta"]);
    expect(first.token).toBeDefined();
    const second = await search({ max_results: 2, order_by: [{ field_name: "name" }], page_token: first.token });
    expect(second).toEqual({ names: ["gamma"], token: undefined });
    const foreign = await mlflow.post("logged-models/search", {
      experiment_ids: [exp],
      max_results: 2,
      page_token: first.token,
    });
    expect(foreign.status).toBe(400);
    // Errors.
    expect(
      (await mlflow.post("logged-models/search", { experiment_ids: [exp], filter: "status = 'DONE'" })).body,
    ).toMatchObject({ message: "Unknown model status in filter: 'DONE'" });
    expect(
      (await mlflow.post("logged-models/search", { experiment_ids: [exp], order_by: [{ field_name: "params.lr" }] }))
        .body,
    ).toMatchObject({ message: "Invalid order by field name: params.lr. Only metrics are supported." });
    expect((await mlflow.post("logged-models/search", {})).body).toMatchObject({
      message:
        "Missing value for required parameter 'experiment_ids'. See the API docs for more information about request parameters.",
    });
    // Deleted models are left out.
    await mlflow.delete(`logged-models/${ids[0]}`);
    expect((await search({})).names).toEqual(["gamma", "beta"]);
  });
});
