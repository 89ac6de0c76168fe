import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";
import { SpecValidator } from "../harness/spec-validator.js";

const MODELS = "/api/2.0/tracker/logged-models";
const MODEL = "/api/2.0/tracker/logged-models/{model_id}";
const TAGS = "/api/2.0/tracker/logged-models/{model_id}/tags";
const TAG = "/api/2.0/tracker/logged-models/{model_id}/tags/{tag_key}";
const PARAMS = "/api/2.0/tracker/logged-models/{model_id}/params";
const ARTIFACTS = "/api/2.0/tracker/logged-models/{model_id}/artifacts/directories";
const SEARCH = "/api/2.0/tracker/logged-models/search";
const FILE = "/api/2.0/tracker/logged-models/{model_id}/artifacts/files";
const UNKNOWN = "m-00000000000000000000000000000000";

/** JSON through MLflow's own paths (`/api/2.0/mlflow/...`), as MLflow 3's Python client sends it. */
async function mlflowCall<T>(
  url: string,
  method: string,
  op: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}/api/2.0/mlflow/${op}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

interface Model {
  info: {
    model_id: string;
    source_run_id: string;
    artifact_uri: string;
    status: string;
    name: string;
    tags?: Array<{ key: string; value: string }>;
  };
  data: { metrics?: Array<Record<string, unknown>>; params?: unknown[] };
}

export const scenario: ExtScenario = {
  name: "logged models: MLflow 3's log_model, register_model and search_logged_models, with their refusals",
  async run({ ext, unauthenticated, client, url, fetch: recorded }) {
    const spec = new SpecValidator("ext");
    const experimentId = await client.createExperiment("contract-logged-models");
    const run = await client.createRun(experimentId);
    const runId = run.info.run_id;
    await client.logParam(runId, "alpha", "0.5");
    await client.logMetric(runId, "rmse", 0.25, { timestamp: 1000, step: 0 });

    // mlflow.sklearn.log_model(model, name="m") inside the run, call by call as MLflow 3.x's client
    // sends it through MLflow's paths: the run (for its params), the model with them and the
    // context tags, the run's output, the metric re-logged with the model id, the files, finalize.
    const active = await mlflowCall<{ run: { data: { params?: Array<{ key: string; value: string }> } } }>(
      url,
      "GET",
      `runs/get?run_id=${runId}`,
    );
    expect(active.body.run.data.params).toEqual([{ key: "alpha", value: "0.5" }]);
    const created = await mlflowCall<{ model: Model }>(url, "POST", "logged-models", {
      experiment_id: experimentId,
      name: "m",
      source_run_id: runId,
      params: active.body.run.data.params,
      tags: [
        { key: "mlflow.user", value: "contract" },
        { key: "mlflow.source.name", value: "train.py" },
        { key: "mlflow.source.type", value: "LOCAL" },
      ],
    });
    expect(created.status).toBe(200);
    const id = created.body.model.info.model_id;
    expect(created.body.model.info.status).toBe("LOGGED_MODEL_PENDING");
    expect(spec.validateSchema("LoggedModel", created.body.model)).toEqual([]);
    const output = await mlflowCall(url, "POST", "runs/outputs", {
      run_id: runId,
      models: [{ model_id: id, step: 0 }],
    });
    expect(output).toEqual({ status: 200, body: {} });
    const withOutputs = await mlflowCall<{ run: { outputs?: unknown } }>(url, "GET", `runs/get?run_id=${runId}`);
    expect(withOutputs.body.run.outputs).toEqual({ model_outputs: [{ model_id: id, step: 0 }] });
    const history = await mlflowCall<{ metrics: Array<Record<string, unknown>> }>(
      url,
      "GET",
      `metrics/get-history?run_uuid=${runId}&run_id=${runId}&metric_key=rmse`,
    );
    expect(history.body.metrics).toHaveLength(1);
    const relog = await mlflowCall(url, "POST", "runs/log-batch", {
      run_id: runId,
      metrics: history.body.metrics.map((m) => ({ ...m, model_id: id })),
    });
    expect(relog.status).toBe(200);
    const got = await mlflowCall<{ model: Model }>(url, "GET", `logged-models/${id}`);
    const artifactUri = got.body.model.info.artifact_uri;
    expect(artifactUri).toBe(`mlflow-artifacts:/${experimentId}/models/${id}/artifacts`);
    for (const file of ["MLmodel", "model.pkl", "conda.yaml", "python_env.yaml", "requirements.txt"]) {
      const put = await fetch(
        `${url}/api/2.0/mlflow-artifacts/artifacts/${experimentId}/models/${id}/artifacts/${file}`,
        { method: "PUT", body: `${file} of ${id}` },
      );
      expect(put.status).toBe(200);
    }
    const finalized = await mlflowCall<{ model: Model }>(url, "PATCH", `logged-models/${id}`, {
      model_id: id,
      status: "LOGGED_MODEL_READY",
    });
    expect(finalized.body.model.info.status).toBe("LOGGED_MODEL_READY");
    expect(finalized.body.model.data.metrics).toEqual([
      { key: "rmse", value: 0.25, timestamp: 1000, step: 0, model_id: id, run_id: runId },
    ]);
    expect(spec.validateSchema("LoggedModel", finalized.body.model)).toEqual([]);

    // mlflow.register_model("models:/<id>", "contract-lm"): the model (a second registration finds
    // it there: RESOURCE_ALREADY_EXISTS, which the client passes over), the logged model for its
    // run, the version, then the client's own entry in the logged model's mlflow.modelVersions.
    await mlflowCall(url, "POST", "registered-models/create", { name: "contract-lm" });
    const again = await mlflowCall<{ error_code: string }>(url, "POST", "registered-models/create", {
      name: "contract-lm",
    });
    expect(again).toMatchObject({ status: 400, body: { error_code: "RESOURCE_ALREADY_EXISTS" } });
    const source = await mlflowCall<{ model: Model }>(url, "GET", `logged-models/${id}`);
    expect(source.body.model.info.source_run_id).toBe(runId);
    const version = await mlflowCall<{ model_version: { version: string; run_id: string } }>(
      url,
      "POST",
      "model-versions/create",
      { name: "contract-lm", source: `models:/${id}`, model_id: id },
    );
    expect(version.body.model_version).toMatchObject({ version: "1", run_id: runId, source: `models:/${id}` });
    const registered = await mlflowCall<{ model: Model }>(url, "GET", `logged-models/${id}`);
    const listed = JSON.parse(
      registered.body.model.info.tags?.find((t) => t.key === "mlflow.modelVersions")?.value ?? "[]",
    );
    expect(listed).toEqual([{ name: "contract-lm", version: 1 }]);
    const appended = JSON.stringify([...listed, { name: "contract-lm", version: "1" }]);
    const tagged = await mlflowCall(url, "PATCH", `logged-models/${id}/tags`, {
      tags: [{ key: "mlflow.modelVersions", value: appended }],
    });
    expect(tagged.status).toBe(200);
    expect(await client.getModelVersionDownloadUri("contract-lm", "1")).toBe(artifactUri);

    // The same model through the typed client on tracker's paths: MLflow's system tags under tracker.*.
    const model = await client.getLoggedModel(id);
    expect(Object.fromEntries((model.info.tags ?? []).map((t) => [t.key, t.value]))).toEqual({
      "tracker.user": "contract",
      "tracker.source.name": "train.py",
      "tracker.source.type": "LOCAL",
      "tracker.modelVersions": appended,
    });
    expect(model.data.metrics).toEqual(finalized.body.model.data.metrics);
    await client.setLoggedModelTags(id, { "tracker.note.content": "from tracker", stage: "candidate" });
    const noted = await mlflowCall<{ model: Model }>(url, "GET", `logged-models/${id}`);
    expect(noted.body.model.info.tags).toEqual(
      expect.arrayContaining([
        { key: "mlflow.note.content", value: "from tracker" },
        { key: "stage", value: "candidate" },
      ]),
    );

    // The typed client through tracker's own paths, every operation with its documented statuses.
    const artifacts = await client.listLoggedModelArtifacts(id);
    expect(artifacts.root_uri).toBe(artifactUri);
    expect(artifacts.files?.map((f) => f.path).sort()).toEqual([
      "MLmodel",
      "conda.yaml",
      "model.pkl",
      "python_env.yaml",
      "requirements.txt",
    ]);
    const fileUrl = `${url}/api/2.0/tracker/logged-models/${id}/artifacts/files?artifact_file_path=MLmodel`;
    const download = await recorded(fileUrl);
    expect(await download.text()).toBe(`MLmodel of ${id}`);
    expect((await recorded(fileUrl, { headers: { Range: "bytes=0-1" } })).status).toBe(206);
    const etag = download.headers.get("etag") ?? "";
    // Revalidation as browsers send it (fetch alone adds `Cache-Control: no-cache`, which forces a 200).
    expect((await recorded(fileUrl, { headers: { "If-None-Match": etag, "Cache-Control": "max-age=0" } })).status).toBe(
      304,
    );
    expect((await ext.GET(FILE, { params: { path: { model_id: id }, query: {} } })).response.status).toBe(400);
    expect(
      (await ext.GET(FILE, { params: { path: { model_id: id }, query: { artifact_file_path: "nope" } } })).response
        .status,
    ).toBe(404);
    const other = await client.createLoggedModel(experimentId, {
      name: "other",
      modelType: "agent",
      params: { p0: "0" },
      tags: { team: "b" },
    });
    const otherId = other.info.model_id;
    await client.logLoggedModelParams(
      otherId,
      Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`q${i}`, String(i)])),
    );
    expect((await client.getLoggedModel(otherId)).data.params).toHaveLength(121);
    await client.deleteLoggedModelTag(otherId, "team");
    expect(await client.finalizeLoggedModel(otherId, "LOGGED_MODEL_UPLOAD_FAILED")).toMatchObject({
      info: { status: "LOGGED_MODEL_UPLOAD_FAILED", model_type: "agent" },
    });

    // mlflow.search_logged_models(experiment_ids, filter_string, order_by, max_results) through
    // MLflow's path, page by page as the client's PagedList does; then the typed client.
    const mlflowSearch = async (pageToken?: string) =>
      (
        await mlflowCall<{ models?: Model[]; next_page_token?: string }>(url, "POST", "logged-models/search", {
          experiment_ids: [experimentId],
          filter: "tags.`mlflow.user` = 'contract' AND metrics.rmse < 1",
          order_by: [{ field_name: "creation_timestamp_ms", ascending: false }],
          max_results: 1,
          ...(pageToken ? { page_token: pageToken } : {}),
        })
      ).body;
    const firstPage = await mlflowSearch();
    expect(firstPage.models?.map((m) => m.info.model_id)).toEqual([id]);
    expect(firstPage.next_page_token).toBeUndefined();

    // search_logged_models: filter, ordering, paging.
    const byName = await client.searchLoggedModels({
      experiment_ids: [experimentId],
      filter: "status = 'READY' AND metrics.rmse < 1 AND params.alpha = '0.5'",
    });
    expect(byName.models?.map((m) => m.info.name)).toEqual(["m"]);
    const page1 = await client.searchLoggedModels({
      experiment_ids: [experimentId],
      order_by: [{ field_name: "name", ascending: true }],
      max_results: 1,
    });
    expect(page1.models?.map((m) => m.info.name)).toEqual(["m"]);
    const page2 = await client.searchLoggedModels({
      experiment_ids: [experimentId],
      order_by: [{ field_name: "name", ascending: true }],
      max_results: 1,
      page_token: page1.next_page_token,
    });
    expect(page2.models?.map((m) => m.info.name)).toEqual(["other"]);
    expect(page2.next_page_token).toBeUndefined();

    await client.deleteLoggedModel(otherId);
    expect((await client.getLoggedModel(otherId, true)).info.name).toBe("other");

    // Refusals.
    const badCreate = await ext.POST(MODELS, { body: { experiment_id: experimentId, name: "a/b" } });
    expect(badCreate.response.status).toBe(400);
    const noExperiment = await ext.POST(MODELS, { body: { experiment_id: "987654" } });
    expect(noExperiment.response.status).toBe(404);
    const notFound = { params: { path: { model_id: UNKNOWN } } };
    expect((await ext.GET(MODEL, notFound)).response.status).toBe(404);
    const badFlag = await recorded(`${url}${MODELS}/${id}?allow_deleted=maybe`);
    expect(badFlag.status).toBe(400);
    expect((await ext.GET(MODEL, { params: { path: { model_id: otherId } } })).response.status).toBe(404);
    expect(
      (await ext.PATCH(MODEL, { ...notFound, body: { model_id: UNKNOWN, status: "LOGGED_MODEL_READY" } })).response
        .status,
    ).toBe(404);
    const badStatus = await ext.PATCH(MODEL, {
      params: { path: { model_id: id } },
      body: { model_id: id, status: "DONE" as never },
    });
    expect(badStatus.response.status).toBe(400);
    expect((await ext.DELETE(MODEL, notFound)).response.status).toBe(404);
    const badDeleteBody = await recorded(`${url}${MODELS}/${id}`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(badDeleteBody.status).toBe(400);
    expect((await ext.PATCH(TAGS, { ...notFound, body: { tags: [{ key: "k", value: "v" }] } })).response.status).toBe(
      404,
    );
    const badTags = await ext.PATCH(TAGS, { params: { path: { model_id: id } }, body: { tags: "x" as never } });
    expect(badTags.response.status).toBe(400);
    expect((await ext.DELETE(TAG, { params: { path: { model_id: id, tag_key: "nope" } } })).response.status).toBe(404);
    expect(
      (await ext.POST(PARAMS, { ...notFound, body: { model_id: UNKNOWN, params: [{ key: "k", value: "v" }] } }))
        .response.status,
    ).toBe(404);
    const relogParam = await ext.POST(PARAMS, {
      params: { path: { model_id: id } },
      body: { model_id: id, params: [{ key: "alpha", value: "0.5" }] },
    });
    expect(relogParam.error).toMatchObject({ error_code: "BAD_REQUEST" });
    expect((await ext.GET(ARTIFACTS, notFound)).response.status).toBe(404);
    const outside = await ext.GET(ARTIFACTS, {
      params: { path: { model_id: id }, query: { artifact_directory_path: "../x" } },
    });
    expect(outside.response.status).toBe(400);
    const badFilter = await ext.POST(SEARCH, { body: { experiment_ids: [experimentId], filter: "status = 'DONE'" } });
    expect(badFilter.error).toMatchObject({ message: "Unknown model status in filter: 'DONE'" });

    const path = { params: { path: { model_id: id } } };
    for (const denied of [
      unauthenticated.POST(MODELS, { body: { experiment_id: experimentId } }),
      unauthenticated.POST(SEARCH, { body: { experiment_ids: [experimentId] } }),
      unauthenticated.GET(MODEL, path),
      unauthenticated.PATCH(MODEL, { ...path, body: { model_id: id, status: "LOGGED_MODEL_READY" } }),
      unauthenticated.DELETE(MODEL, path),
      unauthenticated.PATCH(TAGS, { ...path, body: { tags: [] } }),
      unauthenticated.DELETE(TAG, { params: { path: { model_id: id, tag_key: "k" } } }),
      unauthenticated.POST(PARAMS, { ...path, body: { model_id: id, params: [] } }),
      unauthenticated.GET(ARTIFACTS, path),
      unauthenticated.GET(FILE, { params: { path: { model_id: id }, query: { artifact_file_path: "MLmodel" } } }),
    ]) {
      expect((await denied).response.status).toBe(401);
    }
  },
};
