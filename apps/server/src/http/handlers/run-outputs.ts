import * as links from "../../core/run-model-links.js";
import { toInt64 } from "../../core/values.js";
import { handlerTable, type OperationContext } from "../operation-handler.js";
import { runId } from "../input.js";

/** MLflow 3's run outputs (spec/ext.yaml, runs/outputs): the logged models a run produced, each at a step. */

function modelOutputs(input: OperationContext<"logOutputs">["input"]): links.ModelOutputRecord[] {
  return (input.models ?? []).map((item, i) => ({
    modelId: item.model_id ?? "",
    step: item.step === undefined || item.step === null ? 0 : toInt64(`models[${i}].step`, item.step),
  }));
}

export const runOutputHandlers = handlerTable({
  async logOutputs({ input, services }) {
    await links.logOutputs(services, runId(input), modelOutputs(input));
    return {};
  },
});
