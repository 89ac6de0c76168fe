// Dataset tracking (MLflow 2.4+) from tracker's extensions (spec/ext.yaml): the datasets a run used.
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectData, expectOk } from "./response.js";

export type Dataset = components["schemas"]["Dataset"];
export type DatasetInput = components["schemas"]["DatasetInput"];
/** A dataset some run of an experiment used, in one input context. */
export type DatasetSummary = components["schemas"]["DatasetSummary"];

export class RunInputsClient extends ClientCore {
  /**
   * Records datasets as inputs of a run; `context` (such as `training`) becomes each input's
   * `mlflow.data.context` tag, as MLflow's `log_input` does.
   */
  async logInputs(runId: string, datasets: Array<Dataset | DatasetInput>, context?: string): Promise<void> {
    const inputs: DatasetInput[] = datasets.map((d) => {
      const input: DatasetInput = "dataset" in d ? d : { dataset: d };
      return context === undefined
        ? input
        : { ...input, tags: [...(input.tags ?? []), { key: "mlflow.data.context", value: context }] };
    });
    await expectOk(this.ext.POST("/api/2.0/tracker/runs/log-inputs", { body: { run_id: runId, datasets: inputs } }));
  }

  /** The distinct datasets (name, digest, context) that the runs of 1 to 20 experiments used. */
  async searchDatasets(experimentIds: readonly string[]): Promise<DatasetSummary[]> {
    const data = await expectData(
      this.ext.POST("/api/2.0/tracker/experiments/search-datasets", { body: { experiment_ids: [...experimentIds] } }),
    );
    return data.dataset_summaries ?? [];
  }
}
