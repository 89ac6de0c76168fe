import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { runValueLimitsOf, tagNamespaceOf, type Services } from "./services.js";
import { invalidParameter, notFound } from "./errors.js";
import { checkKey, checkValue, LIMITS, type ValueBound } from "./limits.js";
import type { KeyValue, Page, RunRecord, RunStatus, ViewType } from "./model.js";
import { nowMs } from "./clock.js";
import { generateRunName } from "./run-names.js";
import { STORED_TAGS, swapTagNamespace, swapTagsNamespace } from "../domain/system-tags.js";
import { checkExperimentActive } from "./experiments.js";
import * as store from "../store/runs.js";
import * as writes from "../store/run-writes.js";
import { toRunInfo, type RunRow } from "../store/rows.js";
import { andedExpressionsToFilter, parseRunFilter, searchRuns as searchRunIds } from "../search/index.js";

/** Runs: create, read, update, delete, restore and search (revision-agnostic). */

export const newRunId = (): string => randomBytes(16).toString("hex");

const runMissing = (runId: string) => notFound(`Run with id=${runId} not found`);

/** Fields of the older revisions that are kept as system tags. */
export interface RunSourceFields {
  sourceType?: string;
  sourceName?: string;
  sourceVersion?: string;
  entryPointName?: string;
  parentRunId?: string;
}

export interface CreateRunInput extends RunSourceFields {
  experimentId: number;
  userId?: string;
  runName?: string;
  startTime?: number;
  tags?: KeyValue[];
}

/** Checks a run tag against the limits of the operation used (`label` names the value in messages). */
export function checkRunTag(
  tag: KeyValue,
  value: ValueBound,
  limits: { keyChars?: number; keyBytes?: number } = {},
  label = "value",
): void {
  checkKey("Tag", tag.key, { maxChars: limits.keyChars ?? LIMITS.keyChars, maxBytes: limits.keyBytes });
  checkValue(label, tag.value, value);
}

/**
 * runs/create. The tags come in the request's namespace (see system-tags.ts); the run-name and
 * user system tags give the run's name and user when the fields do not.
 */
export async function createRun(services: Services, input: CreateRunInput): Promise<RunRecord> {
  const names = STORED_TAGS;
  const given = input.tags ?? [];
  for (const tag of given) checkRunTag(tag, runValueLimitsOf(services).tagValue);
  const tags = new Map(swapTagsNamespace(tagNamespaceOf(services), given).map((t) => [t.key, t.value]));
  const runName = input.runName || tags.get(names.runName) || generateRunName();
  tags.set(names.runName, runName);
  const userId = input.userId || tags.get(names.user) || "";
  if (userId) tags.set(names.user, userId);
  const fromSource: Array<[string, string | undefined]> = [
    [names.sourceType, input.sourceType],
    [names.sourceName, input.sourceName],
    [names.sourceVersion, input.sourceVersion],
    [names.entryPoint, input.entryPointName],
    [names.parentRunId, input.parentRunId],
  ];
  for (const [key, value] of fromSource) if (value) tags.set(key, value);
  const runId = newRunId();
  // One statement: checks the experiment, inserts the run and its tags, returns them.
  const created = await writes.insertRunWithTags(
    services.knex,
    {
      run_uuid: runId,
      experiment_id: input.experimentId,
      run_name: runName,
      user_id: userId,
      start_time: input.startTime ?? nowMs(),
    },
    `/${runId}/artifacts`,
    [...tags].map(([key, value]) => ({ key, value })),
  );
  checkExperimentActive(input.experimentId, created.experimentStage);
  return { ...runWithTags(created.row!), params: [], latestMetrics: [], lastLoggedMetrics: [] };
}

/** A run's info and tags from a row that carries its tags (store/run-writes.ts). */
function runWithTags(row: writes.RunRowWithTags): Pick<RunRecord, "info" | "tags"> {
  return { info: toRunInfo(row), tags: row.tags.map(([key, value]) => ({ key, value })) };
}

export async function getRun(services: Services, runId: string): Promise<RunRecord> {
  const [run] = await store.loadRuns(services.knex, [runId]);
  if (!run) throw runMissing(runId);
  return run;
}

/** Locks the run (shared) inside a transaction and checks it may be written to. */
export async function requireActiveRun(db: Knex, runId: string): Promise<RunRow> {
  const row = await store.findRunRow(db, runId, true);
  checkRunActive(runId, row?.lifecycle_stage);
  return row as RunRow;
}

/** Throws unless a run was found (its lifecycle stage is given) and is active. */
export function checkRunActive(runId: string, lifecycleStage: string | undefined): void {
  if (lifecycleStage === undefined) throw runMissing(runId);
  if (lifecycleStage !== "active") {
    throw invalidParameter(`The run ${runId} must be in the 'active' state. Current state is ${lifecycleStage}.`);
  }
}

/** runs/update in one statement; returns the run's info and tags after the update. */
export async function updateRun(
  services: Services,
  runId: string,
  changes: { status?: RunStatus; endTime?: number; runName?: string },
): Promise<Pick<RunRecord, "info" | "tags">> {
  const names = STORED_TAGS;
  const runName = changes.runName === "" ? undefined : changes.runName;
  if (runName !== undefined) checkRunTag({ key: names.runName, value: runName }, runValueLimitsOf(services).tagValue);
  const { stage, row } = await writes.updateRunFields(
    services.knex,
    runId,
    { status: changes.status, endTime: changes.endTime, runName },
    names.runName,
  );
  checkRunActive(runId, stage);
  return runWithTags(row!);
}

export async function setRunLifecycle(services: Services, runId: string, stage: "active" | "deleted"): Promise<void> {
  await services.knex.transaction(async (trx) => {
    const row = await store.findRunRow(trx, runId, true);
    if (!row) throw runMissing(runId);
    if (row.lifecycle_stage === stage) return;
    await store.updateRunRow(trx, runId, {
      lifecycle_stage: stage,
      deleted_time: stage === "deleted" ? nowMs() : null,
      deleted_with_experiment: false,
    });
  });
}

export interface RunSearch {
  experimentIds: number[];
  /** Revision C's filter string (blank: every run). */
  filter?: string;
  /** Revisions A and B: the request's anded_expressions (JSON), instead of a filter string. */
  andedExpressions?: unknown;
  orderBy?: string[];
  viewType?: ViewType;
  maxResults: number;
  pageToken?: string;
  /** Only these keys in each run (ext operation runs/search-columns). */
  columns?: store.RunColumns;
}

export async function searchRuns(services: Services, query: RunSearch): Promise<Page<RunRecord>> {
  const { runIds, nextPageToken } = await searchRunIds(services.knex, {
    experimentIds: query.experimentIds,
    filter:
      query.andedExpressions === undefined
        ? parseRunFilter(query.filter)
        : andedExpressionsToFilter(query.andedExpressions),
    orderBy: query.orderBy,
    viewType: query.viewType ?? "ACTIVE_ONLY",
    maxResults: query.maxResults,
    pageToken: query.pageToken,
    tagKey: (key) => swapTagNamespace(tagNamespaceOf(services), key),
  });
  const columns = query.columns && {
    ...query.columns,
    tagKeys: query.columns.tagKeys.map((key) => swapTagNamespace(tagNamespaceOf(services), key)),
  };
  return { items: await store.loadRuns(services.knex, runIds, columns), nextPageToken };
}

/** The runs listed by experiments/get: active ones (B, C) or all (A), newest first, at most `limit`; info and tags. */
export function runsOfExperiment(
  services: Services,
  experimentId: number,
  activeOnly: boolean,
  limit = 1000,
): Promise<Array<Pick<RunRecord, "info" | "tags">>> {
  return store.runInfosOfExperiment(services.knex, experimentId, activeOnly, limit);
}
