// Links between runs and logged models (MLflow 3) from tracker's extensions (spec/ext.yaml): the
// models a run produced (runs/outputs) and the models it used (runs/log-inputs with `models`).
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectOk } from "./response.js";

/** A logged model a run produced: its id and the step (0 when omitted) at which the run produced it. */
export type ModelOutput = components["schemas"]["ModelOutput"];
/** The outputs of a run as MLflow's paths answer them in `run.outputs`. */
export type RunOutputs = components["schemas"]["RunOutputs"];
/** The inputs of a run (datasets and logged models) as MLflow's paths answer them in `run.inputs`. */
export type RunInputs = components["schemas"]["RunInputs"];

export class RunModelLinksClient extends ClientCore {
  /**
   * Records logged models as outputs of a run (what MLflow 3's `log_model` does after creating the
   * model). A model id alone, or `{model_id, step}`; a model already recorded for the run is refused.
   */
  async logOutputs(runId: string, models: Array<string | ModelOutput>): Promise<void> {
    const body = { run_id: runId, models: models.map((m) => (typeof m === "string" ? { model_id: m } : m)) };
    await expectOk(this.ext.POST("/api/2.0/tracker/runs/outputs", { body }));
  }

  /** Records logged models as inputs of a run (a model it already has is not added again). */
  async logModelInputs(runId: string, modelIds: readonly string[]): Promise<void> {
    const models = modelIds.map((model_id) => ({ model_id }));
    await expectOk(this.ext.POST("/api/2.0/tracker/runs/log-inputs", { body: { run_id: runId, models } }));
  }
}
