import * as datasets from "../../core/datasets.js";
import type { DatasetInputRecord } from "../../core/datasets.js";
import type { Services } from "../../core/services.js";
import type { HandlerTable } from "../operation-handler.js";
import { toExperimentId } from "../../core/values.js";
import { keyValues, optionalString, runId, stringArray, type Input } from "../input.js";

/** Dataset tracking (spec/ext.yaml, runs/log-inputs; MLflow 2.4+) and the `inputs` of runs under MLflow's paths. */

function datasetInputs(input: Input): DatasetInputRecord[] {
  const raw = input.datasets;
  if (raw === undefined || raw === null) return [];
  return (raw as Input[]).map((item) => {
    const dataset = (item.dataset ?? {}) as Input;
    const schema = optionalString(dataset, "schema");
    const profile = optionalString(dataset, "profile");
    return {
      tags: keyValues(item, "tags"),
      dataset: {
        name: optionalString(dataset, "name") ?? "",
        digest: optionalString(dataset, "digest") ?? "",
        sourceType: optionalString(dataset, "source_type") ?? "",
        source: optionalString(dataset, "source") ?? "",
        ...(schema === undefined ? {} : { schema }),
        ...(profile === undefined ? {} : { profile }),
      },
    };
  });
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

/**
 * Adds `inputs` (MLflow's RunInputs: `{}` or `{dataset_inputs: [...]}`) to shaped runs, as MLflow 2.x's
 * clients read them from runs/get and runs/search.
 */
export async function withRunInputs<R extends { info: { run_id?: string; run_uuid: string } }>(
  services: Services,
  runs: R[],
): Promise<Array<R & { inputs: object }>> {
  const byRun = await datasets.runInputs(
    services,
    runs.map((r) => r.info.run_uuid),
  );
  return runs.map((run) => {
    const inputs = byRun.get(run.info.run_uuid) ?? [];
    return { ...run, inputs: inputs.length === 0 ? {} : { dataset_inputs: inputs.map(datasetInputOut) } };
  });
}

export const runInputHandlers: HandlerTable = {
  async logInputs({ input, services }) {
    await datasets.logInputs(services, runId(input), datasetInputs(input));
    return {};
  },

  async searchDatasets({ input, services }) {
    const ids = stringArray(input, "experiment_ids").map((id) => toExperimentId(id, "experiment_ids"));
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
};
