import type { Services } from "./services.js";
import { invalidParameter, missingValue } from "./errors.js";
import { checkValue } from "./limits.js";
import type { DatasetInputRecord } from "../domain/records.js";
import { DATASET_CONTEXT_TAG } from "../domain/system-tags.js";
import { addModelInputs, checkModelIds } from "./run-model-links.js";
import { requireActiveRun } from "./runs.js";
import * as store from "../store/datasets.js";

/**
 * Dataset tracking (MLflow 2.4+): runs/log-inputs records the datasets a run used. A dataset is
 * stored once per (experiment, name, digest); each run that logs it gets one input with its tags.
 */

export type { DatasetInputRecord, DatasetRecord } from "../domain/records.js";

/** MLflow 2.x's limits (mlflow/utils/validation.py). */
export const DATASET_LIMITS = {
  datasetsPerRequest: 1000,
  nameChars: 500,
  digestChars: 36,
  sourceChars: 65_535,
  schemaChars: 1_048_575,
  profileChars: 16_777_215,
  tagKeyChars: 255,
  tagValueChars: 500,
} as const;

function checkDatasetInput(input: DatasetInputRecord, i: number): void {
  const at = `datasets[${i}]`;
  const d = input.dataset;
  const required: Array<[string, string]> = [
    ["name", d.name],
    ["digest", d.digest],
    ["source_type", d.sourceType],
    ["source", d.source],
  ];
  for (const [field, value] of required) if (value === "") throw missingValue(`${at}.dataset.${field}`);
  checkValue("Dataset name", d.name, { maxChars: DATASET_LIMITS.nameChars });
  checkValue("Dataset digest", d.digest, { maxChars: DATASET_LIMITS.digestChars });
  checkValue("Dataset source_type", d.sourceType, {});
  checkValue("Dataset source", d.source, { maxChars: DATASET_LIMITS.sourceChars });
  if (d.schema !== undefined) checkValue("Dataset schema", d.schema, { maxChars: DATASET_LIMITS.schemaChars });
  if (d.profile !== undefined) checkValue("Dataset profile", d.profile, { maxChars: DATASET_LIMITS.profileChars });
  for (const tag of input.tags) {
    if (tag.key === "") throw missingValue(`${at}.tags.key`);
    checkValue("Input tag key", tag.key, { maxChars: DATASET_LIMITS.tagKeyChars });
    checkValue("Input tag value", tag.value, { maxChars: DATASET_LIMITS.tagValueChars });
  }
}

/** runs/log-inputs: all datasets and models (MLflow 3's model inputs, by id) or none, in one transaction. */
export async function logInputs(
  services: Services,
  runId: string,
  inputs: readonly DatasetInputRecord[],
  modelIds: readonly string[] = [],
): Promise<void> {
  if (inputs.length > DATASET_LIMITS.datasetsPerRequest) {
    throw invalidParameter(
      `A batch logging request can contain at most ${DATASET_LIMITS.datasetsPerRequest} datasets. Got ${inputs.length} datasets. Please split up datasets across multiple requests and try again.`,
    );
  }
  inputs.forEach(checkDatasetInput);
  checkModelIds(modelIds);
  if (inputs.length === 0 && modelIds.length === 0) {
    await requireActiveRun(services.knex, runId);
    return;
  }
  await services.knex.transaction(async (trx) => {
    const run = await requireActiveRun(trx, runId);
    for (const input of inputs) {
      const datasetId = await store.ensureDataset(trx, Number(run.experiment_id), input.dataset);
      await store.addRunInput(trx, runId, datasetId, input.tags);
    }
    await addModelInputs(trx, runId, modelIds);
  });
}

/** The inputs of the given runs, by run id. */
export const runInputs = (services: Services, runIds: readonly string[]) => store.runInputsOf(services.knex, runIds);

/** Limits of experiments/search-datasets (MLflow's). */
export const SEARCH_DATASETS_LIMITS = { experimentIds: 20, results: 1000 } as const;

export interface DatasetSummary {
  experimentId: number;
  name: string;
  digest: string;
  context?: string;
}

/** experiments/search-datasets: the datasets the runs of 1 to 20 experiments used, per input context. */
export async function searchDatasets(services: Services, experimentIds: readonly number[]): Promise<DatasetSummary[]> {
  if (experimentIds.length === 0)
    throw invalidParameter("SearchDatasets request must specify at least one experiment_id.");
  if (experimentIds.length > SEARCH_DATASETS_LIMITS.experimentIds)
    throw invalidParameter(
      `SearchDatasets request cannot specify more than ${SEARCH_DATASETS_LIMITS.experimentIds} experiment_ids. Received ${experimentIds.length} experiment_ids.`,
    );
  const rows = await store.datasetSummaries(
    services.knex,
    experimentIds,
    DATASET_CONTEXT_TAG,
    SEARCH_DATASETS_LIMITS.results,
  );
  return rows.map((row) => ({
    experimentId: row.experiment_id,
    name: row.name,
    digest: row.digest,
    ...(row.context === null ? {} : { context: row.context }),
  }));
}
