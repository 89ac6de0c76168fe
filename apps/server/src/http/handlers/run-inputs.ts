import * as datasets from "../../core/datasets.js";
import type { DatasetInputRecord } from "../../core/datasets.js";
import { runModelLinks } from "../../core/run-model-links.js";
import type { Services } from "../../core/services.js";
import { handlerTable, type OperationContext } from "../operation-handler.js";
import { toExperimentId } from "../../core/values.js";
import { keyValues, listOf, runId } from "../input.js";

/**
 * Dataset tracking (spec/ext.yaml, runs/log-inputs; MLflow 2.4+), model inputs (MLflow 3), and the `inputs` and
 * `outputs` of runs under MLflow's paths.
 */

function datasetInputs(input: OperationContext<"logInputs">["input"]): DatasetInputRecord[] {
  return (input.datasets ?? []).map(({ tags, dataset }) => ({
    tags: keyValues(tags),
    dataset: {
      name: dataset?.name ?? "",
      digest: dataset?.digest ?? "",
      sourceType: dataset?.source_type ?? "",
      source: dataset?.source ?? "",
      ...(dataset?.schema == null ? {} : { schema: dataset.schema }),
      ...(dataset?.profile == null ? {} : { profile: dataset.profile }),
    },
  }));
}

const datasetInputOut = (d: DatasetInputRecord) => ({
  tags: d.tags,
  dataset: {
    name: d.dataset.name,
    digest: d.dataset.digest,
    source_type: d.dataset.sourceType,
    source: d.dataset.source,
    ...(d.dataset.schema === undefined ? {} : { schema: d.dataset.schema }),
    ...(d.dataset.profile === undefined ? {} : { profile: d.dataset.profile }),
  },
});

/** The `models` of runs/log-inputs (MLflow 3): `[{model_id}]`, as model ids. */
function modelInputIds(input: OperationContext<"logInputs">["input"]): string[] {
  return (input.models ?? []).map((item) => item.model_id ?? "");
}

/**
 * Adds `inputs` (MLflow's RunInputs: `dataset_inputs` since 2.4, `model_inputs` since 3.0) and
 * `outputs` (RunOutputs: `model_outputs`, MLflow 3) to shaped runs, as MLflow's clients read them
 * from runs/get and runs/search; a run with none has `{}` for each.
 */
export async function withRunInputsAndOutputs<R extends { info: { run_id?: string; run_uuid: string } }>(
  services: Services,
  runs: R[],
): Promise<Array<R & { inputs: object; outputs: object }>> {
  const ids = runs.map((r) => r.info.run_uuid);
  const [byRun, linksByRun] = await Promise.all([datasets.runInputs(services, ids), runModelLinks(services, ids)]);
  return runs.map((run) => {
    const datasetList = byRun.get(run.info.run_uuid) ?? [];
    const links = linksByRun.get(run.info.run_uuid);
    const inputs = {
      ...(datasetList.length === 0 ? {} : { dataset_inputs: datasetList.map(datasetInputOut) }),
      ...(links?.inputs.length ? { model_inputs: links.inputs.map((m) => ({ model_id: m.modelId })) } : {}),
    };
    const outputs = links?.outputs.length
      ? { model_outputs: links.outputs.map((m) => ({ model_id: m.modelId, step: m.step })) }
      : {};
    return { ...run, inputs, outputs };
  });
}

export const runInputHandlers = handlerTable({
  async logInputs({ input, services }) {
    await datasets.logInputs(services, runId(input), datasetInputs(input), modelInputIds(input));
    return {};
  },

  async searchDatasets({ input, services }) {
    const ids = listOf(input.experiment_ids).map((id) => toExperimentId(id, "experiment_ids"));
    const summaries = await datasets.searchDatasets(services, ids);
    if (summaries.length === 0) return {};
    return {
      dataset_summaries: summaries.map((s) => ({
        experiment_id: String(s.experimentId),
        name: s.name,
        digest: s.digest,
        ...(s.context === undefined ? {} : { context: s.context }),
      })),
    };
  },
});
