import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";
import { SpecValidator } from "../harness/spec-validator.js";

const PATH = "/api/2.0/tracker/runs/outputs";
const modelId = (n: number) => `m-${n.toString(16).padStart(32, "0")}`;

export const scenario: ExtScenario = {
  name: "runs/outputs and model inputs: recorded, answered under MLflow's paths, with their refusals",
  async run({ ext, unauthenticated, client, url }) {
    const experimentId = await client.createExperiment("contract-model-links");
    const runId = (await client.createRun(experimentId)).info.run_id;

    // MLflow 3's log_model: the output at step 0 right after the model is created; then model inputs.
    await client.logOutputs(runId, [{ model_id: modelId(1), step: 0 }]);
    await client.logOutputs(runId, [modelId(2)]);
    await client.logModelInputs(runId, [modelId(3)]);
    await client.logModelInputs(runId, [modelId(3)]);

    // Revision C's runs/get is unchanged; MLflow's paths answer the links in RunOutputs and RunInputs.
    const response = await fetch(`${url}/api/2.0/mlflow/runs/get?run_id=${runId}`);
    const { run } = (await response.json()) as { run: { inputs: unknown; outputs: unknown } };
    expect(run.outputs).toEqual({
      model_outputs: [
        { model_id: modelId(1), step: 0 },
        { model_id: modelId(2), step: 0 },
      ],
    });
    expect(run.inputs).toEqual({ model_inputs: [{ model_id: modelId(3) }] });
    const spec = new SpecValidator("ext");
    expect(spec.validateSchema("RunOutputs", run.outputs)).toEqual([]);
    expect(spec.validateSchema("RunInputs", run.inputs)).toEqual([]);

    // 400: missing models, an output recorded twice (BAD_REQUEST), a deleted run; 404: unknown run.
    const missing = await ext.POST(PATH, { body: { run_id: runId } as never });
    expect(missing.error).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const twice = await ext.POST(PATH, { body: { run_id: runId, models: [{ model_id: modelId(1), step: 3 }] } });
    expect(twice.error).toMatchObject({
      error_code: "BAD_REQUEST",
      message: `Model ${modelId(1)} is already an output of run ${runId}.`,
    });
    const noRun = await ext.POST(PATH, { body: { run_id: "f".repeat(32), models: [{ model_id: modelId(1) }] } });
    expect(noRun.response.status).toBe(404);
    await client.deleteRun(runId);
    const deleted = await ext.POST(PATH, { body: { run_id: runId, models: [{ model_id: modelId(4) }] } });
    expect(deleted.error).toMatchObject({
      error_code: "INVALID_PARAMETER_VALUE",
      message: `The run ${runId} must be in the 'active' state. Current state is deleted.`,
    });

    const denied = await unauthenticated.POST(PATH, { body: { run_id: runId, models: [] } });
    expect(denied.response.status).toBe(401);
  },
};
