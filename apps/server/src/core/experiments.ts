import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Knex } from "knex";
import type { TrackerConfig } from "../config/config.js";
import { isS3Uri } from "../config/s3-location.js";
import type { Services } from "./services.js";
import { alreadyExists, invalidParameter, invalidState, notFound } from "./errors.js";
import { checkExperimentName, checkKey, checkValue, LIMITS } from "./limits.js";
import type { ExperimentRecord, KeyValue, Page, ViewType } from "./model.js";
import { nowMs } from "./clock.js";
import { storedTagFilter, swapRequestTagKey, swapRequestTags } from "./request-tags.js";
import { isUniqueViolation } from "../store/unique-violation.js";
import * as store from "../store/experiments.js";
import { MAX_EXPERIMENT_SEARCH_RESULTS, parseExperimentFilter, searchExperimentRows } from "../search/index.js";

/** Experiments: create, read, search, rename, tag, delete and restore (revision-agnostic). */

/** The artifact location of a new experiment: proxied when serving artifacts, else a local folder. */
export function defaultExperimentLocation(config: TrackerConfig, experimentId: number): string {
  return defaultExperimentLocationPrefix(config) + String(experimentId);
}

/** What defaultExperimentLocation puts before the experiment id (the SQL that creates an experiment appends the id itself). */
export function defaultExperimentLocationPrefix(config: TrackerConfig): string {
  if (config.proxyArtifacts) return "mlflow-artifacts:/";
  if (isS3Uri(config.artifactRoot)) return `${config.artifactRoot}/`;
  // path.join normalises the root; joined with a one-character name, everything before that name.
  const folder = path.join(config.artifactRoot, "0").slice(0, -1);
  return config.artifactRootIsUri ? pathToFileURL(folder).href : folder;
}

/** The experiment `Default` with id 0 exists from the first start (MLflow's behaviour). */
export async function ensureDefaultExperiment(knex: Knex, config: TrackerConfig): Promise<void> {
  await store.insertDefaultExperiment(knex, defaultExperimentLocation(config, 0), nowMs());
}

const missing = (id: number | string) => notFound(`No Experiment with id=${id} exists`);

function checkExperimentTag(tag: KeyValue): void {
  checkKey("Experiment tag", tag.key, { maxChars: LIMITS.keyChars });
  checkValue("value", tag.value, { maxBytes: LIMITS.tagValueBytes });
}

export async function createExperiment(
  services: Services,
  input: { name: string; artifactLocation?: string; tags?: KeyValue[] },
): Promise<number> {
  checkExperimentName(input.name);
  const tags = input.tags ?? [];
  if (tags.length > LIMITS.experimentTags) throw invalidParameter(`At most ${LIMITS.experimentTags} tags may be given`);
  tags.forEach(checkExperimentTag);
  if (input.artifactLocation?.includes("\u0000")) throw invalidParameter("artifact_location contains a NUL character");
  try {
    // One statement: the id from the sequence, the experiment, its tags.
    return await store.insertExperiment(
      services.knex,
      { name: input.name, artifactLocation: input.artifactLocation || undefined, now: nowMs() },
      defaultExperimentLocationPrefix(services.config),
      swapRequestTags(services, tags),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`Experiment(name=${input.name}) already exists.`);
    throw err;
  }
}

export async function getExperiment(services: Services, id: number): Promise<ExperimentRecord> {
  const [experiment] = await store.loadExperiments(services.knex, [id]);
  if (!experiment) throw missing(id);
  return experiment;
}

export async function getExperimentByName(services: Services, name: string): Promise<ExperimentRecord> {
  const id = await store.findExperimentIdByName(services.knex, name);
  if (id === undefined) throw notFound(`Could not find experiment with name '${name}'`);
  return getExperiment(services, id);
}

export interface ExperimentSearch {
  /** The filter string (blank: every experiment). */
  filter?: string;
  orderBy?: string[];
  viewType?: ViewType;
  maxResults: number;
  pageToken?: string;
}

export async function searchExperiments(services: Services, query: ExperimentSearch): Promise<Page<ExperimentRecord>> {
  // One statement: the page's rows with their tags (no second read of the experiments by id).
  const { rows, nextPageToken } = await searchExperimentPage(services, query, store.EXPERIMENT_WITH_TAGS);
  return { items: rows.map(store.experimentWithTags), nextPageToken };
}

/**
 * The same page as searchExperiments, each experiment as the JSON text of revision C's Experiment
 * (its tags presented in `namespace`), built by the database (store.experimentJsonColumns).
 */
export async function searchExperimentsJson(
  services: Services,
  query: ExperimentSearch,
  namespace: string,
): Promise<Page<string>> {
  const { rows, nextPageToken } = await searchExperimentPage(services, query, store.experimentJsonColumns(namespace));
  return { items: rows.map((row) => row.json as string), nextPageToken };
}

function searchExperimentPage(
  services: Services,
  query: ExperimentSearch,
  columns: Parameters<typeof searchExperimentRows>[2],
) {
  return searchExperimentRows(
    services.knex,
    {
      filter: storedTagFilter(services, parseExperimentFilter(query.filter)),
      orderBy: query.orderBy,
      viewType: query.viewType ?? "ACTIVE_ONLY",
      maxResults: query.maxResults,
      pageToken: query.pageToken,
    },
    columns,
  );
}

/** Every experiment of a view type, page by page (revisions A and B list without paging). */
export async function listAllExperiments(services: Services, viewType: ViewType): Promise<ExperimentRecord[]> {
  const all: ExperimentRecord[] = [];
  let pageToken: string | undefined;
  do {
    const page = await searchExperiments(services, { viewType, maxResults: MAX_EXPERIMENT_SEARCH_RESULTS, pageToken });
    all.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}

export async function deleteExperiment(services: Services, id: number): Promise<void> {
  await services.knex.transaction(async (trx) => {
    const row = await store.findExperimentRow(trx, id, true);
    if (!row || row.lifecycle_stage === "deleted") throw missing(id);
    const now = nowMs();
    await store.updateExperimentRow(trx, id, { lifecycle_stage: "deleted", last_update_time: now });
    await store.setRunsDeletedWithExperiment(trx, id, true, now);
  });
}

export async function restoreExperiment(services: Services, id: number): Promise<void> {
  try {
    await services.knex.transaction(async (trx) => {
      const row = await store.findExperimentRow(trx, id, true);
      if (!row) throw missing(id);
      if (row.lifecycle_stage === "active") return;
      await store.updateExperimentRow(trx, id, { lifecycle_stage: "active", last_update_time: nowMs() });
      await store.setRunsDeletedWithExperiment(trx, id, false, nowMs());
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw alreadyExists(`Cannot restore experiment ${id}: an active experiment with the same name exists`);
    throw err;
  }
}

export async function renameExperiment(services: Services, id: number, newName: string | undefined): Promise<void> {
  if (newName !== undefined) checkExperimentName(newName);
  try {
    await services.knex.transaction(async (trx) => {
      const row = await store.findExperimentRow(trx, id, true);
      if (!row) throw missing(id);
      if (row.lifecycle_stage !== "active") throw invalidState(`Cannot rename a non-active experiment (id=${id})`);
      if (newName === undefined || newName === row.name) return;
      await store.updateExperimentRow(trx, id, { name: newName, last_update_time: nowMs() });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`Experiment(name=${newName}) already exists.`);
    throw err;
  }
}

export async function setExperimentTag(services: Services, id: number, tag: KeyValue): Promise<void> {
  checkExperimentTag(tag);
  const stored = { key: swapRequestTagKey(services, tag.key), value: tag.value };
  const stage = await store.setExperimentTag(services.knex, id, stored, nowMs());
  if (stage === undefined) throw missing(id);
  if (stage !== "active") throw invalidParameter(`The experiment ${id} must be in the 'active' state`);
}

/** experiments/delete-experiment-tag (MLflow 2.x): the experiment must be active and hold the tag. */
export async function deleteExperimentTag(services: Services, id: number, key: string): Promise<void> {
  const { stage, removed } = await store.deleteExperimentTag(services.knex, id, swapRequestTagKey(services, key));
  if (stage === undefined) throw missing(id);
  if (stage !== "active")
    throw invalidParameter(`The experiment ${id} must be in the 'active' state. Current state is ${stage}.`);
  if (!removed) throw notFound(`No tag with name: ${key} in experiment with id ${id}`);
}

/** Throws unless the experiment was found (its lifecycle stage is given) and is active: only then may it hold new runs. */
export function checkExperimentActive(id: number, lifecycleStage: string | undefined): void {
  if (lifecycleStage === undefined) throw missing(id);
  if (lifecycleStage !== "active")
    throw invalidParameter(`The experiment ${id} must be in the 'active' state; it is deleted`);
}

/** The experiment must exist and be active to hold new runs. */
export async function requireActiveExperiment(services: Services, id: number): Promise<ExperimentRecord> {
  const experiment = await getExperiment(services, id);
  checkExperimentActive(id, experiment.lifecycleStage);
  return experiment;
}
