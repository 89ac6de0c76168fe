import * as runs from "../../core/runs.js";
import { toExperimentId } from "../../core/values.js";
import { handlerTable, type OperationContext } from "../operation-handler.js";
import { tagNamespaceOf, type Services } from "../../core/services.js";
import type { RunColumns } from "../../store/runs.js";
import { keyValues, listOf, optionalInt, runId } from "../input.js";
import { runInfoOut, runOut } from "../shapes.js";
import { withRunInputsAndOutputs } from "./run-inputs.js";

/** Run operations of every revision. */

const DEFAULT_MAX_RESULTS = 1000;
/** Revisions A and B have no paging on runs/search. */
const PREVIEW_MAX_RESULTS = 50_000;

export const runHandlers = handlerTable({
  async createRun({ revision, input, services }) {
    const run = await runs.createRun(services, {
      experimentId:
        input.experiment_id === undefined || input.experiment_id === null ? 0 : toExperimentId(input.experiment_id),
      userId: input.user_id,
      runName: input.run_name,
      startTime: optionalInt("start_time", input.start_time),
      tags: keyValues(input.tags),
      ...(revision === "c"
        ? {}
        : {
            sourceType: input.source_type,
            sourceName: input.source_name,
            sourceVersion: input.source_version,
            entryPointName: input.entry_point_name,
            parentRunId: "parent_run_id" in input ? input.parent_run_id : undefined,
          }),
    });
    return { run: runOut(revision, run, tagNamespaceOf(services)) };
  },

  async getRun({ revision, input, services, mlflow }) {
    const run = runOut(revision, await runs.getRun(services, runId(input)), tagNamespaceOf(services));
    return { run: mlflow ? (await withRunInputsAndOutputs(services, [run]))[0] : run };
  },

  async updateRun({ revision, input, services }) {
    const run = await runs.updateRun(services, runId(input), {
      status: input.status,
      endTime: optionalInt("end_time", input.end_time),
      runName: revision === "c" ? input.run_name : undefined,
    });
    return { run_info: runInfoOut(revision, run.info, run.tags, tagNamespaceOf(services)) };
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
    if (revision === "c") return searchRunsC(services, input, undefined, mlflow);
    const page = await runs.searchRuns(services, {
      experimentIds: listOf(input.experiment_ids).map((id) => toExperimentId(id, "experiment_ids")),
      andedExpressions: input.anded_expressions ?? [],
      viewType: ("run_view_type" in input ? input.run_view_type : undefined) ?? "ACTIVE_ONLY",
      maxResults: PREVIEW_MAX_RESULTS,
    });
    return { runs: page.items.map((run) => runOut(revision, run, tagNamespaceOf(services))) };
  },
});

/** The request of runs/search in revision C, which runs/search-columns (ext) extends. */
type SearchRunsInput = Extract<OperationContext<"searchRuns">, { revision: "c" }>["input"];

/**
 * runs/search of revision C (and the ext operation runs/search-columns, which adds `columns`):
 * the request's criteria, one page of runs in C's shape.
 */
export async function searchRunsC(
  services: Services,
  input: SearchRunsInput,
  columns?: RunColumns,
  withInputs = false,
) {
  const page = await runs.searchRuns(services, {
    experimentIds: listOf(input.experiment_ids).map((id) => toExperimentId(id, "experiment_ids")),
    filter: input.filter,
    orderBy: listOf(input.order_by),
    viewType: input.run_view_type ?? "ACTIVE_ONLY",
    maxResults: optionalInt("max_results", input.max_results) ?? DEFAULT_MAX_RESULTS,
    pageToken: input.page_token,
    columns,
  });
  const shaped = page.items.map((run) => runOut("c", run, tagNamespaceOf(services)));
  // Requests through MLflow's paths (and search-columns asking for them) also get the runs' inputs
  // (MLflow 2.4+) and outputs (MLflow 3).
  const body = { runs: withInputs ? await withRunInputsAndOutputs(services, shaped) : shaped };
  return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
}
