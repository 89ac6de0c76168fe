import * as links from "../../core/run-model-links.js";
import { toInt64 } from "../../core/values.js";
import type { HandlerTable } from "../operation-handler.js";
import { optionalString, runId, type Input } from "../input.js";

/** MLflow 3's run outputs (spec/ext.yaml, runs/outputs): the logged models a run produced, each at a step. */

function modelOutputs(input: Input): links.ModelOutputRecord[] {
  return ((input.models ?? []) as Input[]).map((item, i) => ({
    modelId: optionalString(item, "model_id") ?? "",
    step: item.step === undefined || item.step === null ? 0 : toInt64(`models[${i}].step`, item.step),
  }));
}

export const runOutputHandlers: HandlerTable = {
  async logOutputs({ input, services }) {
    await links.logOutputs(services, runId(input), modelOutputs(input));
    return {};
  },
};
