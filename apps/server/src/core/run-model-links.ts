import type { Knex } from "knex";
import { badRequest, missingValue } from "./errors.js";
import { checkValue } from "./limits.js";
import { requireActiveRun } from "./runs.js";
import type { Services } from "./services.js";
import { isUniqueViolation } from "../store/unique-violation.js";
import * as store from "../store/run-model-links.js";
import type { ModelOutputRecord, RunModelLinks } from "../store/run-model-links.js";

export type { ModelInputRecord, ModelOutputRecord, RunModelLinks } from "../store/run-model-links.js";

/**
 * MLflow 3's links between runs and logged models: the models a run produced (runs/outputs) and the
 * models it used (runs/log-inputs with `models`). As in MLflow, the run must exist and be active,
 * and the model need not exist: a link names a model by id alone.
 */

/** Longest model id: MLflow's column width (its ids are `m-` and 32 hex digits). */
export const MODEL_ID_MAX_CHARS = 36;

/** The model ids of a request's `models`: each present, not empty, at most MODEL_ID_MAX_CHARS characters. */
export function checkModelIds(modelIds: readonly string[]): void {
  for (const [i, modelId] of modelIds.entries()) {
    if (modelId === "") throw missingValue(`models[${i}].model_id`);
    checkValue("Model id", modelId, { maxChars: MODEL_ID_MAX_CHARS });
  }
}

/** runs/outputs: all outputs or none; a model that already is an output of the run is BAD_REQUEST, as in MLflow. */
export async function logOutputs(
  services: Services,
  runId: string,
  outputs: readonly ModelOutputRecord[],
): Promise<void> {
  const modelIds = outputs.map((o) => o.modelId);
  checkModelIds(modelIds);
  const repeated = modelIds.find((id, i) => modelIds.indexOf(id) !== i);
  if (repeated !== undefined) throw outputExists(runId, repeated);
  try {
    await services.knex.transaction(async (trx) => {
      await requireActiveRun(trx, runId);
      await store.insertModelOutputs(trx, runId, outputs);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw outputExists(runId, await firstExistingOutput(services.knex, runId, modelIds));
    throw err;
  }
}

const outputExists = (runId: string, modelId: string) =>
  badRequest(`Model ${modelId} is already an output of run ${runId}.`);

async function firstExistingOutput(db: Knex, runId: string, modelIds: readonly string[]): Promise<string> {
  const existing = (await store.modelLinksOf(db, [runId])).get(runId)?.outputs.map((o) => o.modelId) ?? [];
  return modelIds.find((id) => existing.includes(id)) ?? modelIds[0] ?? "";
}

/** Makes the models inputs of the run in the caller's transaction (the run is checked by the caller). */
export async function addModelInputs(trx: Knex, runId: string, modelIds: readonly string[]): Promise<void> {
  await store.insertModelInputs(trx, runId, modelIds);
}

/** The model links of the given runs, by run id. */
export const runModelLinks = (services: Services, runIds: readonly string[]): Promise<Map<string, RunModelLinks>> =>
  store.modelLinksOf(services.knex, runIds);
