import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, call, testDatabases, useTestServer, type Api } from "@tracker/testing";

interface Run {
  info: { run_id: string };
  inputs?: { dataset_inputs?: unknown[]; model_inputs?: Array<{ model_id: string }> };
  outputs?: { model_outputs?: Array<{ model_id: string; step: number }> };
}

const modelId = (n: number) => `m-${n.toString(16).padStart(32, "0")}`;

describe.each(testDatabases())("run outputs and model inputs (MLflow 3) on %s", (kind) => {
  const suite = useTestServer(kind);
  let mlflow: Api;
  let tracker: Api;
  let experimentId: string;
  beforeAll(async () => {
    mlflow = apiAt(suite.url, "2.0/mlflow");
    tracker = apiAt(suite.url, "2.0/tracker");
    experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "model-links" })).body
      .experiment_id;
  });

  const newRun = async () =>
    (await mlflow.post<{ run: Run }>("runs/create", { experiment_id: experimentId })).body.run.info.run_id;
  const getRun = async (runId: string) => (await mlflow.get<{ run: Run }>("runs/get", { run_id: runId })).body.run;

  it("records outputs and model inputs and answers them in runs/get and runs/search under MLflow's paths", async () => {
    const runId = await newRun();
    expect(await getRun(runId)).toMatchObject({ inputs: {}, outputs: {} });

    // What MLflow 3's log_model sends right after creating the logged model.
    expect(await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(1), step: 0 }] })).toEqual(
      expect.objectContaining({ status: 200, body: {} }),
    );
    expect(
      (await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(2), step: "7" }] })).status,
    ).toBe(200);
    expect((await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(3) }] })).status).toBe(200);
    expect((await mlflow.post("runs/outputs", { run_id: runId, models: [] })).status).toBe(200);
    expect(
      (
        await mlflow.post("runs/log-inputs", {
          run_id: runId,
          models: [{ model_id: modelId(9) }, { model_id: modelId(8) }],
        })
      ).status,
    ).toBe(200);
    // The same model input again adds nothing.
    expect((await mlflow.post("runs/log-inputs", { run_id: runId, models: [{ model_id: modelId(9) }] })).status).toBe(
      200,
    );

    const outputs = {
      model_outputs: [
        { model_id: modelId(1), step: 0 },
        { model_id: modelId(2), step: 7 },
        { model_id: modelId(3), step: 0 },
      ],
    };
    const inputs = { model_inputs: [{ model_id: modelId(9) }, { model_id: modelId(8) }] };
    expect(await getRun(runId)).toMatchObject({ inputs, outputs });
    const ajax = await call<{ run: Run }>(suite.url, "GET", "/ajax-api/2.0/mlflow/runs/get", { run_id: runId });
    expect(ajax.body.run).toMatchObject({ inputs, outputs });
    const searched = await mlflow.post<{ runs: Run[] }>("runs/search", {
      experiment_ids: [experimentId],
      filter: `attributes.run_id = '${runId}'`,
    });
    expect(searched.body.runs[0]).toMatchObject({ inputs, outputs });

    // Revision C's answers under tracker's paths stay as the revision defines them.
    const plain = (await tracker.get<{ run: Run }>("runs/get", { run_id: runId })).body.run;
    expect(plain).not.toHaveProperty("outputs");
    expect(plain).not.toHaveProperty("inputs");
  });

  it("writes model inputs and datasets of one log-inputs call together", async () => {
    const runId = await newRun();
    const dataset = { name: "d", digest: "x1", source_type: "local", source: "{}" };
    await mlflow.post("runs/log-inputs", {
      run_id: runId,
      datasets: [{ dataset }],
      models: [{ model_id: modelId(4) }],
    });
    const run = await getRun(runId);
    expect(run.inputs?.dataset_inputs).toHaveLength(1);
    expect(run.inputs?.model_inputs).toEqual([{ model_id: modelId(4) }]);
    // A bad model id refuses the datasets too.
    const other = await newRun();
    expect(
      await mlflow.post("runs/log-inputs", { run_id: other, datasets: [{ dataset }], models: [{ model_id: "" }] }),
    ).toMatchObject({ status: 400, body: { error_code: "INVALID_PARAMETER_VALUE" } });
    expect((await getRun(other)).inputs).toEqual({});
  });

  it("refuses what MLflow refuses: missing fields, unknown and deleted runs, an output recorded twice", async () => {
    const runId = await newRun();
    expect(await mlflow.post("runs/outputs", { run_id: runId })).toMatchObject({
      status: 400,
      body: {
        error_code: "INVALID_PARAMETER_VALUE",
        message:
          "Missing value for required parameter 'models'. See the API docs for more information about request parameters.",
      },
    });
    expect(await mlflow.post("runs/outputs", { models: [] })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("'run_id'") },
    });
    expect(await mlflow.post("runs/outputs", { run_id: runId, models: [{ step: 1 }] })).toMatchObject({
      status: 400,
      body: { error_code: "INVALID_PARAMETER_VALUE", message: expect.stringContaining("model_id") },
    });
    expect(await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: "m".repeat(37) }] })).toMatchObject({
      status: 400,
      body: { message: "'Model id' exceeds the maximum length of 36 characters" },
    });
    expect(
      await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(1), step: "x" }] }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "INVALID_PARAMETER_VALUE" },
    });
    const missing = "0".repeat(32);
    expect(await mlflow.post("runs/outputs", { run_id: missing, models: [{ model_id: modelId(1) }] })).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: `Run with id=${missing} not found` },
    });
    expect(await mlflow.post("runs/log-inputs", { run_id: missing, models: [{ model_id: modelId(1) }] })).toMatchObject(
      {
        status: 404,
      },
    );

    await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(5), step: 1 }] });
    expect(
      await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(5), step: 2 }] }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "BAD_REQUEST", message: `Model ${modelId(5)} is already an output of run ${runId}.` },
    });
    expect(
      await mlflow.post("runs/outputs", {
        run_id: runId,
        models: [{ model_id: modelId(6) }, { model_id: modelId(6) }],
      }),
    ).toMatchObject({ status: 400, body: { error_code: "BAD_REQUEST" } });
    // Nothing of a refused request is kept.
    expect((await getRun(runId)).outputs).toEqual({ model_outputs: [{ model_id: modelId(5), step: 1 }] });

    await mlflow.post("runs/delete", { run_id: runId });
    const notActive = {
      status: 400,
      body: {
        error_code: "INVALID_PARAMETER_VALUE",
        message: `The run ${runId} must be in the 'active' state. Current state is deleted.`,
      },
    };
    expect(await mlflow.post("runs/outputs", { run_id: runId, models: [{ model_id: modelId(7) }] })).toMatchObject(
      notActive,
    );
    expect(await mlflow.post("runs/log-inputs", { run_id: runId, models: [{ model_id: modelId(7) }] })).toMatchObject(
      notActive,
    );
  });
});
