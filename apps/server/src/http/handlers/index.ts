import type { HandlerTable } from "../operation-handler.js";
import { artifactHandlers } from "./artifacts.js";
import { experimentHandlers } from "./experiments.js";
import { healthHandlers } from "./health.js";
import { loggedModelHandlers } from "./logged-models.js";
import { modelAliasHandlers } from "./model-aliases.js";
import { registryHandlers } from "./registry.js";
import { runDataHandlers } from "./run-data.js";
import { runHandlers } from "./runs.js";
import { runInputHandlers } from "./run-inputs.js";
import { runOutputHandlers } from "./run-outputs.js";
import { metricSamplingHandlers } from "./metric-sampling.js";
import { runColumnsHandlers } from "./run-columns.js";
import { serverInfoHandlers } from "./server-info.js";

/**
 * Every implemented operation, by operationId (the same ids in every revision's spec; ext.yaml's ids are its own). An
 * operation of a spec that has no entry here answers 501 NOT_IMPLEMENTED.
 */
export const handlers: HandlerTable = {
  ...experimentHandlers,
  ...runHandlers,
  ...runDataHandlers,
  ...runInputHandlers,
  ...runOutputHandlers,
  ...artifactHandlers,
  ...registryHandlers,
  ...modelAliasHandlers,
  ...serverInfoHandlers,
  ...healthHandlers,
  ...metricSamplingHandlers,
  ...runColumnsHandlers,
  ...loggedModelHandlers,
};
