import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, testDatabases, useTestServer } from "@tracker/testing";

interface DatasetInput {
  tags?: Array<{ key: string; value: string }>;
  dataset: { name: string; digest: string; source_type: string; source: string; schema?: string; profile?: string };
}
interface Run {
  info: { run_id: string };
  inputs?: { dataset_inputs?: DatasetInput[] };
}

/** What MLflow 2.x's Python client sends for `mlflow.log_input(mlflow.data.from_pandas(df, name=...), context=...)`. */
const pandasDataset = (name: string, digest: string, context?: string): DatasetInput => ({
  ...(context ? { tags: [{ key: "mlflow.data.context", value: context }] } : {}),
  dataset: {
    name,
    digest,
    source_type: "local",
    source: JSON.stringify({ uri: `/data/${name}.csv` }),
    schema: JSON.stringify({
      mlflow_colspec: [
        { type: "double", name: "x" },
        { type: "long", name: "y" },
      ],
    }),
    profile: JSON.stringify({ num_rows: 3, num_elements: 6 }),
  },
});

describe.each(testDatabases())("dataset tracking (runs/log-inputs) on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const tracker = suite.api;
  let experimentId: string;
  beforeAll(async () => {
    experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "datasets" })).body
      .experiment_id;
  });

  const newRun = async () =>
    (await mlflow.post<{ run: Run }>("runs/create", { experiment_id: experimentId, start_time: Date.now() })).body.run
      .info.run_id;
  const getRun = async (runId: string) => (await mlflow.get<{ run: Run }>("runs/get", { run_id: runId })).body.run;
  const search = async (filter: string) =>
    (
      (await mlflow.post<{ runs?: Run[] }>("runs/search", { experiment_ids: [experimentId], filter, max_results: 100 }))
        .body.runs ?? []
    )
      .map((r) => r.info.run_id)
      .sort();

  it("logs datasets with their context and reads them back in runs/get and runs/search under MLflow's paths", async () => {
    const runId = await newRun();
    expect((await getRun(runId)).inputs).toEqual({});
    const res = await mlflow.post("runs/log-inputs", {
      run_id: runId,
      datasets: [pandasDataset("train", "aaaa1111", "training"), pandasDataset("eval", "bbbb2222", "validation")],
    });
    expect(res).toMatchObject({ status: 200, body: {} });
    const run = await getRun(runId);
    expect(run.inputs?.dataset_inputs).toEqual([
      pandasDataset("train", "aaaa1111", "training"),
      { ...pandasDataset("eval", "bbbb2222", "validation") },
    ]);
    const searched = await mlflow.post<{ runs: Run[] }>("runs/search", {
      experiment_ids: [experimentId],
      filter: `attributes.run_id = '${runId}'`,
    });
    expect(searched.body.runs[0].inputs?.dataset_inputs?.map((d) => d.dataset.name)).toEqual(["train", "eval"]);
    // Revision C's answers under tracker's paths stay as the revision defines them.
    expect((await tracker.get<{ run: Run }>("runs/get", { run_id: runId })).body.run).not.toHaveProperty("inputs");
  });

  it("stores a dataset once per (experiment, name, digest) and a run's input once", async () => {
    const [a, b] = [await newRun(), await newRun()];
    const input = pandasDataset("shared", "cccc3333", "training");
    await Promise.all([a, b, a].map((run_id) => mlflow.post("runs/log-inputs", { run_id, datasets: [input] })));
    await mlflow.post("runs/log-inputs", {
      run_id: a,
      datasets: [{ ...input, tags: [{ key: "mlflow.data.context", value: "other" }] }],
    });
    expect((await getRun(a)).inputs?.dataset_inputs).toEqual([input]);
    expect((await getRun(b)).inputs?.dataset_inputs).toEqual([input]);
    const stored = await suite.server.database
      .knex("datasets")
      .where({ name: "shared", digest: "cccc3333" })
      .count<Array<{ count: string | number }>>("* as count");
    expect(Number(stored[0].count)).toBe(1);
  });

  it("filters runs by dataset.name, dataset.digest and dataset.context, with OR and NOT", async () => {
    const [x, y, z] = [await newRun(), await newRun(), await newRun()];
    await mlflow.post("runs/log-inputs", { run_id: x, datasets: [pandasDataset("iris", "d1", "training")] });
    await mlflow.post("runs/log-inputs", { run_id: y, datasets: [pandasDataset("iris", "d2", "holdout")] });
    await mlflow.post("runs/log-inputs", { run_id: z, datasets: [pandasDataset("wine", "d3", "training")] });
    expect(await search("dataset.name = 'iris'")).toEqual([x, y].sort());
    expect(await search("dataset.digest IN ('d2', 'd3')")).toEqual([y, z].sort());
    expect(await search("dataset.context = 'training' AND dataset.name = 'iris'")).toEqual([x]);
    expect(await search("dataset.name = 'wine' OR dataset.context = 'holdout'")).toEqual([y, z].sort());
    expect(await search("datasets.name LIKE 'wi%'")).toEqual([z]);
    const withoutIris = await search("NOT dataset.name = 'iris'");
    expect(withoutIris).toContain(z);
    expect(withoutIris).not.toContain(x);
    expect(
      await mlflow.post("runs/search", { experiment_ids: [experimentId], filter: "dataset.size = 'x'" }),
    ).toMatchObject({ status: 400, body: { error_code: "INVALID_PARAMETER_VALUE" } });
  });

  it("gives the runs' inputs through tracker's runs/search-columns only when include_inputs is true", async () => {
    const runId = await newRun();
    await mlflow.post("runs/log-inputs", { run_id: runId, datasets: [pandasDataset("churn", "c1", "training")] });
    const columns = async (body: Record<string, unknown>) =>
      (
        await tracker.post<{ runs: Run[] }>("runs/search-columns", {
          experiment_ids: [experimentId],
          filter: `attributes.run_id = '${runId}'`,
          ...body,
        })
      ).body.runs;
    const [withInputs] = await columns({ include_inputs: true });
    expect(withInputs?.inputs?.dataset_inputs).toEqual([pandasDataset("churn", "c1", "training")]);
    const [plain] = await columns({});
    expect(plain).not.toHaveProperty("inputs");
    // The dataset filter works there too, as the web UI's dataset menu sends it.
    const filtered = await tracker.post<{ runs?: Run[] }>("runs/search-columns", {
      experiment_ids: [experimentId],
      filter: "dataset.name = 'churn' AND dataset.digest = 'c1' AND dataset.context = 'training'",
      include_inputs: true,
    });
    expect(filtered.body.runs?.map((r) => r.info.run_id)).toEqual([runId]);
    expect(
      await tracker.post("runs/search-columns", { experiment_ids: [experimentId], include_inputs: "yes" }),
    ).toMatchObject({ status: 400, body: { error_code: "INVALID_PARAMETER_VALUE" } });
  });

  it("refuses what MLflow refuses, with its messages", async () => {
    const runId = await newRun();
    const long = pandasDataset("n".repeat(501), "d");
    expect(await mlflow.post("runs/log-inputs", { run_id: runId, datasets: [long] })).toMatchObject({
      status: 400,
      body: {
        error_code: "INVALID_PARAMETER_VALUE",
        message: "'Dataset name' exceeds the maximum length of 500 characters",
      },
    });
    expect(
      await mlflow.post("runs/log-inputs", { run_id: runId, datasets: [pandasDataset("x", "d".repeat(37))] }),
    ).toMatchObject({
      status: 400,
      body: { message: "'Dataset digest' exceeds the maximum length of 36 characters" },
    });
    expect(await mlflow.post("runs/log-inputs", { datasets: [] })).toMatchObject({
      status: 400,
      body: {
        message:
          "Missing value for required parameter 'run_id'. See the API docs for more information about request parameters.",
      },
    });
    expect(
      await mlflow.post("runs/log-inputs", { run_id: "0".repeat(32), datasets: [pandasDataset("x", "y")] }),
    ).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: `Run with id=${"0".repeat(32)} not found` },
    });
    await mlflow.post("runs/delete", { run_id: runId });
    expect((await mlflow.post("runs/log-inputs", { run_id: runId, datasets: [pandasDataset("x", "y")] })).status).toBe(
      400,
    );
  });
});
