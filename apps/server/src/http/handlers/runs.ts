import * as runs from "../../core/runs.js";
import { invalidParameter } from "../../core/errors.js";
import type { RunStatus, ViewType } from "../../core/model.js";
import { toExperimentId } from "../../core/values.js";
import { andedExpressionsToFilter, parseRunFilter } from "../../search/index.js";
import type { HandlerTable } from "../operation-handler.js";
import type { Services } from "../../core/services.js";
import type { RunColumns } from "../../store/runs.js";
import { keyValues, optionalInt, optionalString, runId, stringArray, type Input } from "../input.js";
import { runInfoOut, runOut } from "../shapes.js";
import { withRunInputsAndOutputs } from "./run-inputs.js";

/** Run operations of every revision. */

const DEFAULT_MAX_RESULTS = 1000;
/** Revisions A and B have no paging on runs/search. */
const PREVIEW_MAX_RESULTS = 50_000;

export const runHandlers: HandlerTable = {
  async createRun({ revision, input, services }) {
    const run = await runs.createRun(services, {
      experimentId:
        input.experiment_id === undefined || input.experiment_id === null ? 0 : toExperimentId(input.experiment_id),
      userId: optionalString(input, "user_id"),
      runName: optionalString(input, "run_name"),
      startTime: optionalInt(input, "start_time"),
      tags: keyValues(input, "tags"),
      ...(revision === "c"
        ? {}
        : {
            sourceType: optionalString(input, "source_type"),
            sourceName: optionalString(input, "source_name"),
            sourceVersion: optionalString(input, "source_version"),
            entryPointName: optionalString(input, "entry_point_name"),
            parentRunId: optionalString(input, "parent_run_id"),
          }),
    });
    return { run: runOut(revision, run, services.config.namespace) };
  },

  async getRun({ revision, input, services, mlflow }) {
    const run = runOut(revision, await runs.getRun(services, runId(input)), services.config.namespace);
    return { run: mlflow ? (await withRunInputsAndOutputs(services, [run]))[0] : run };
  },

  async updateRun({ revision, input, services }) {
    const id = runId(input);
    const run = await runs.updateRun(services, id, {
      status: optionalString(input, "status") as RunStatus | undefined,
      endTime: optionalInt(input, "end_time"),
      runName: revision === "c" ? optionalString(input, "run_name") : undefined,
    });
    return { run_info: runInfoOut(revision, run.info, run.tags, services.config.namespace) };
  },

  async deleteRun({ input, services }) {
    await runs.setRunLifecycle(services, runId(input), "deleted");
    return {};
  },

  async restoreRun({ input, services }) {
    await runs.setRunLifecycle(services, runId(input), "active");
    return {};
  },

  async searchRuns({ revision, input, services, mlflow }) {
    const experimentIds = stringArray(input, "experiment_ids").map((id) => toExperimentId(id, "experiment_ids"));
    const viewType = (optionalString(input, "run_view_type") as ViewType | undefined) ?? "ACTIVE_ONLY";
    if (revision === "c") return searchRunsC(services, input, undefined, mlflow);
    const expressions = input.anded_expressions ?? [];
    if (!Array.isArray(expressions)) throw invalidParameter("'anded_expressions' must be an array");
    const page = await runs.searchRuns(services, {
      experimentIds,
      filter: andedExpressionsToFilter(expressions),
      viewType,
      maxResults: PREVIEW_MAX_RESULTS,
    });
    return { runs: page.items.map((run) => runOut(revision, run, services.config.namespace)) };
  },
};

/**
 * runs/search of revision C (and the ext operation runs/search-columns, which adds `columns`):
 * the request's criteria, one page of runs in C's shape.
 */
export async function searchRunsC(services: Services, input: Input, columns?: RunColumns, mlflow = false) {
  const experimentIds = stringArray(input, "experiment_ids").map((id) => toExperimentId(id, "experiment_ids"));
  const viewType = (optionalString(input, "run_view_type") as ViewType | undefined) ?? "ACTIVE_ONLY";
  const filterText = optionalString(input, "filter");
  const page = await runs.searchRuns(services, {
    experimentIds,
    filter: filterText ? parseRunFilter(filterText) : undefined,
    orderBy: stringArray(input, "order_by"),
    viewType,
    maxResults: optionalInt(input, "max_results") ?? DEFAULT_MAX_RESULTS,
    pageToken: optionalString(input, "page_token"),
    columns,
  });
  const shaped = page.items.map((run) => runOut("c", run, services.config.namespace));
  // Requests through MLflow's paths also get the runs' inputs (MLflow 2.4+) and outputs (MLflow 3).
  const body = { runs: mlflow ? await withRunInputsAndOutputs(services, shaped) : shaped };
  return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
}
