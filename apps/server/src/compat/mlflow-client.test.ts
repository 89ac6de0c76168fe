import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { backendStore, startServerProcess, type ServerProcess } from "@tracker/testing";
import { artifactStoreFlags, databaseAndStoreCases, storedArtifacts, testDatabases } from "@tracker/testing";

/**
 * A real third-party MLflow client from the npm registry (`mlflow`), unchanged, against
 * `tracker server --namespace mlflow` started as users start it.
 */

interface MlflowRunsApi {
  create(a: {
    experiment_id: string;
    user_id?: string;
    start_time?: number;
    tags?: Array<{ key: string; value: string }>;
  }): Promise<{ run: { info: { run_id: string; artifact_uri: string; run_name: string } } }>;
  get(a: { run_id: string }): Promise<{
    run: {
      info: Record<string, unknown>;
      data: {
        metrics?: Array<{ key: string; value: number }>;
        params?: unknown[];
        tags?: Array<{ key: string; value: string }>;
      };
    };
  }>;
  logMetric(a: { run_id: string; key: string; value: number; timestamp: number; step?: number }): Promise<unknown>;
  logParameter(a: { run_id: string; key: string; value: string }): Promise<unknown>;
  logBatch(a: { run_id: string; metrics?: unknown[]; params?: unknown[]; tags?: unknown[] }): Promise<unknown>;
  setTag(a: { run_id: string; key: string; value: string }): Promise<unknown>;
  update(a: { run_id: string; status?: string; end_time?: number }): Promise<{ run_info: { status: string } }>;
  search(a: {
    experiment_ids: string[];
    filter?: string;
    order_by?: string[];
    max_results?: number;
  }): Promise<{ runs?: Array<{ info: { run_id: string } }> }>;
}
interface MlflowClient {
  Experiments: {
    create(a: { name: string }): Promise<{ experiment_id: string }>;
    list(a?: { view_type?: string }): Promise<{ experiments: Array<{ experiment_id: string; name: string }> }>;
    get(a: { experiment_id: string }): Promise<{ experiment: { name: string } }>;
  };
  Runs: MlflowRunsApi;
  Metrics: {
    getHistory(a: {
      run_id: string;
      metric_key: string;
    }): Promise<{ metrics?: Array<{ value: number; step: number }> }>;
  };
  Artifacts: {
    list(a: {
      run_id: string;
      path?: string;
    }): Promise<{ root_uri: string; files?: Array<{ path: string; is_dir: boolean; file_size?: number }> }>;
  };
}

const require = createRequire(import.meta.url);
const MLflow = require("mlflow") as new (options: { endpoint: string }) => MlflowClient;

describe.each(databaseAndStoreCases(testDatabases()))(
  "the npm `mlflow` client against tracker --namespace mlflow on %s, %s artifact store",
  (kind, artifactStore) => {
    let server: ServerProcess;
    let store: Awaited<ReturnType<typeof backendStore>>;
    let client: MlflowClient;
    const storeFlags = artifactStoreFlags(artifactStore);
    beforeAll(async () => {
      vi.spyOn(console, "log").mockImplementation(() => undefined); // the client prints every POST body
      store = await backendStore(kind);
      server = await startServerProcess(["--namespace", "mlflow", "--backend-store-uri", store.uri, ...storeFlags]);
      client = new MLflow({ endpoint: server.url });
    });
    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
      await store?.dispose();
      if (storeFlags[1]) await storedArtifacts(storeFlags[1]).clear();
      vi.restoreAllMocks();
    });

    it("runs a training script's whole session", async () => {
      const { experiment_id } = await client.Experiments.create({ name: "npm-client" });
      const { experiments } = await client.Experiments.list();
      expect(experiments.map((e) => e.name)).toEqual(expect.arrayContaining(["Default", "npm-client"]));
      expect(experiments.find((e) => e.name === "Default")?.experiment_id).toBe("0");
      expect((await client.Experiments.get({ experiment_id })).experiment.name).toBe("npm-client");

      const runIds: string[] = [];
      for (let r = 0; r < 3; r++) {
        const { run } = await client.Runs.create({
          experiment_id,
          user_id: "ada",
          start_time: Date.now() + r,
          tags: [{ key: "kind", value: "train" }],
        });
        expect(run.info.run_name).toMatch(/^[a-z]+-[a-z]+-\d+$/);
        const runId = run.info.run_id;
        runIds.push(runId);
        await client.Runs.logParameter({ run_id: runId, key: "lr", value: String(0.1 * (r + 1)) });
        for (let step = 0; step < 10; step++) {
          await client.Runs.logMetric({
            run_id: runId,
            key: "loss",
            value: 1 / (step + 1 + r),
            timestamp: 1000 + step,
            step,
          });
        }
        await client.Runs.logBatch({
          run_id: runId,
          metrics: [{ key: "acc", value: 0.5 + r / 10, timestamp: 2000, step: 0 }],
          params: [{ key: "epochs", value: "10" }],
          tags: [{ key: "stage", value: "done" }],
        });
        await client.Runs.setTag({ run_id: runId, key: "owner", value: "team-a" });
        const { run_info } = await client.Runs.update({ run_id: runId, status: "FINISHED", end_time: Date.now() });
        expect(run_info.status).toBe("FINISHED");
      }

      const got = await client.Runs.get({ run_id: runIds[0] });
      expect(got.run.data.tags).toEqual(
        expect.arrayContaining([
          { key: "mlflow.user", value: "ada" },
          { key: "owner", value: "team-a" },
        ]),
      );
      expect(got.run.data.tags?.find((t) => t.key === "mlflow.runName")).toBeDefined();
      expect(got.run.data.metrics?.find((m) => m.key === "loss")?.value).toBeCloseTo(0.1);

      const found = await client.Runs.search({
        experiment_ids: [experiment_id],
        filter: "metrics.acc > 0.55 and params.epochs = '10'",
        order_by: ["metrics.acc DESC"],
        max_results: 10,
      });
      expect(found.runs?.map((r) => r.info.run_id)).toEqual([runIds[2], runIds[1]]);

      const history = await client.Metrics.getHistory({ run_id: runIds[0], metric_key: "loss" });
      expect(history.metrics?.map((m) => m.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

      // The run's artifacts are proxied: a client anywhere uploads them through the server (the npm
      // client has no upload, so this PUT is what MLflow's Python client sends), then lists them.
      const root = got.run.info.artifact_uri as string;
      expect(root).toBe(`mlflow-artifacts:/${experiment_id}/${runIds[0]}/artifacts`);
      const put = await fetch(
        `${server.url}/api/2.0/mlflow-artifacts/artifacts/${root.slice("mlflow-artifacts:/".length)}/model/MLmodel`,
        { method: "PUT", body: "flavors: {}\n" },
      );
      expect(put.status).toBe(200);
      const listed = await client.Artifacts.list({ run_id: runIds[0] });
      expect(listed.root_uri).toBe(root);
      expect(listed.files).toEqual([{ path: "model", is_dir: true }]);
      const inside = await client.Artifacts.list({ run_id: runIds[0], path: "model" });
      expect(inside.files).toEqual([{ path: "model/MLmodel", is_dir: false, file_size: 12 }]);
    });

    it("registers a model version, moves it to Production and reads the latest versions (MLflow 1.x paths)", async () => {
      const post = async (p: string, body: unknown) => {
        const res = await fetch(`${server.url}/api/2.0/${p}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(res.status, `${p}: ${await res.clone().text()}`).toBe(200);
        return res.json() as Promise<Record<string, any>>;
      };
      await post("mlflow/registered-models/create", { name: "churn" });
      const created = await post("mlflow/model-versions/create", { name: "churn", source: "/tmp/model", run_id: "" });
      expect(created.model_version).toMatchObject({
        name: "churn",
        version: "1",
        current_stage: "None",
        status: "READY",
      });
      const moved = await post("mlflow/model-versions/transition-stage", {
        name: "churn",
        version: "1",
        stage: "production",
        archive_existing_versions: true,
      });
      expect(moved.model_version.current_stage).toBe("Production");
      const latest = await post("mlflow/registered-models/get-latest-versions", {
        name: "churn",
        stages: ["Production"],
      });
      expect(latest.model_versions.map((v: { version: string }) => v.version)).toEqual(["1"]);
    });

    it("runs an MLflow 2.x training and deployment script: datasets, long params and tags, aliases, versions by version_number", async () => {
      // The npm client (2.0.7) has no log-inputs or registry calls: those requests are sent as MLflow
      // 2.x's Python client sends them (JSON bodies, GET parameters in the query string, DELETE with a body).
      const send = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`${server.url}/api/2.0/mlflow/${p}`, {
          method,
          ...(body === undefined
            ? {}
            : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
        });
        expect(res.status, `${method} ${p}: ${await res.clone().text()}`).toBe(200);
        return res.json() as Promise<Record<string, any>>;
      };
      const { experiment_id } = await client.Experiments.create({ name: "mlflow-2x-script" });
      const { run } = await client.Runs.create({ experiment_id, start_time: Date.now() });
      const runId = run.info.run_id;

      // mlflow.log_input(mlflow.data.from_pandas(df, name="iris"), context="training")
      const dataset = {
        name: "iris",
        digest: "0f1e2d3c",
        source_type: "local",
        source: JSON.stringify({ uri: "/data/iris.csv" }),
        schema: JSON.stringify({ mlflow_colspec: [{ type: "double", name: "sepal_length" }] }),
        profile: JSON.stringify({ num_rows: 150, num_elements: 750 }),
      };
      await send("POST", "runs/log-inputs", {
        run_id: runId,
        datasets: [{ tags: [{ key: "mlflow.data.context", value: "training" }], dataset }],
      });
      // MLflow 2.x's limits: a 1,000-character param and a 6,000-character tag are fine.
      await client.Runs.logParameter({ run_id: runId, key: "features", value: "f".repeat(1000) });
      await client.Runs.setTag({ run_id: runId, key: "mlflow.note.content", value: "n".repeat(6000) });
      await client.Runs.update({ run_id: runId, status: "FINISHED", end_time: Date.now() });

      const got = (await client.Runs.get({ run_id: runId })) as unknown as {
        run: { inputs: { dataset_inputs: unknown[] } };
      };
      expect(got.run.inputs.dataset_inputs).toEqual([
        { tags: [{ key: "mlflow.data.context", value: "training" }], dataset },
      ]);
      const found = await client.Runs.search({
        experiment_ids: [experiment_id],
        filter: "dataset.name = 'iris' AND dataset.context = 'training'",
      });
      expect(found.runs?.map((r) => r.info.run_id)).toEqual([runId]);

      // mlflow.register_model(f"runs:/{run_id}/model", "iris-classifier") twice, then the champion alias.
      await send("POST", "registered-models/create", { name: "iris-classifier" });
      for (let i = 0; i < 2; i++)
        await send("POST", "model-versions/create", {
          name: "iris-classifier",
          source: `runs:/${runId}/model`,
          run_id: runId,
        });
      await send("POST", "registered-models/alias", { name: "iris-classifier", alias: "champion", version: "2" });

      // mlflow.pyfunc.load_model("models:/iris-classifier@champion"): version by alias, then its download URI.
      const byAlias = await send("GET", "registered-models/alias?name=iris-classifier&alias=champion");
      expect(byAlias.model_version).toMatchObject({ name: "iris-classifier", version: "2", aliases: ["champion"] });
      const uri = await send(
        "GET",
        `model-versions/get-download-uri?name=iris-classifier&version=${byAlias.model_version.version}`,
      );
      expect(uri.artifact_uri).toBe(`runs:/${runId}/model`);
      const model = await send("GET", "registered-models/get?name=iris-classifier");
      expect(model.registered_model.aliases).toEqual([{ alias: "champion", version: "2" }]);

      // client.search_model_versions("name='iris-classifier'", order_by=["version_number DESC"])
      const versions = await send(
        "GET",
        "model-versions/search?filter=name%3D%27iris-classifier%27&order_by=version_number+DESC&max_results=10000",
      );
      expect(versions.model_versions.map((v: { version: string }) => v.version)).toEqual(["2", "1"]);

      // MLflow 3: client.search_registered_models("name LIKE 'iris%'") adds its prompt filter to every search.
      const models = await send(
        "GET",
        "registered-models/search?filter=name+LIKE+%27iris%25%27+AND+tag.%60mlflow.prompt.is_prompt%60+%21%3D+%27true%27&max_results=100",
      );
      expect(models.registered_models.map((m: { name: string }) => m.name)).toEqual(["iris-classifier"]);

      await send("DELETE", "registered-models/alias", { name: "iris-classifier", alias: "champion" });
      expect((await send("GET", "model-versions/get?name=iris-classifier&version=2")).model_version.aliases).toEqual(
        [],
      );
    });

    it("answers GET on experiments/search and the preview runs/search, as MLflow does", async () => {
      const res = await fetch(`${server.url}/api/2.0/mlflow/experiments/search?max_results=5&order_by=name`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { experiments: unknown[] };
      expect(body.experiments.length).toBeGreaterThan(0);
      const runs = await fetch(`${server.url}/api/2.0/preview/mlflow/runs/search?experiment_ids=0`);
      expect(runs.status).toBe(200);
    });
  },
);
