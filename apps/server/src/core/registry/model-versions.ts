import type { Knex } from "knex";
import { parseModelVersionFilter, searchModelVersionRows } from "../../search/index.js";
import { checkMaxResults } from "../../search/search-options.js";
import { nowMs } from "../clock.js";
import { invalidParameter, notFound } from "../errors.js";
import { loggedModelSource, recordModelVersion } from "../logged-model-versions.js";
import type { KeyValue, Page } from "../model.js";
import type { Services } from "../services.js";
import * as store from "../../store/registry/model-versions.js";
import { findRegisteredModelRow, updateRegisteredModelRow } from "../../store/registry/registered-models.js";
import { storedTagFilter, swapRequestTagKey, swapRequestTags } from "../request-tags.js";
import { checkedTags, checkTag, checkTagKey, checkText } from "./checks.js";
import {
  ACTIVE_STAGES,
  canonicalStage,
  modelNotFound,
  parseVersion,
  versionNotFound,
  type ModelVersionRecord,
} from "./model.js";

/**
 * Model versions (revision C). Numbers come from the model row's next_version counter, taken with
 * an UPDATE that locks the model row; stage transitions lock the model row before archiving the
 * other versions. Writes that change a model and its versions lock the model row first, so the
 * lock order is always model, then versions, then tags.
 */

export const VERSION_SEARCH_LIMITS = { defaultMaxResults: 10_000, maxResults: 200_000 } as const;

/** A version reference from a request: the model name and the version as decimal digits. */
export interface VersionRef {
  name: string;
  version: string;
}

function resolve(ref: VersionRef): { name: string; version: number } {
  checkText("name", ref.name);
  return { name: ref.name, version: parseVersion(ref.name, ref.version) };
}

async function loadOrThrow(db: Knex, name: string, version: number): Promise<ModelVersionRecord> {
  const record = await store.loadModelVersion(db, name, version);
  if (!record) throw versionNotFound(name, version);
  return record;
}

/** A logged model's id in a `models:/<id>` source (MLflow 3); undefined for other sources. */
export function loggedModelIdOfSource(source: string): string | undefined {
  const match = /^models:\/+(m-[^/@]+)\/?$/.exec(source);
  return match?.[1];
}

/**
 * Where the files of a version with this source are, when not at the source itself: a logged
 * model's artifact location for `models:/<model id>`, a registered version's own location for
 * `models:/<name>/<version>`. The run of a logged model comes too. A logged model that does not
 * exist is refused with MLflow's message (404 here: a client's mistake, where MLflow answers 500).
 */
async function resolveModelsSource(
  services: Services,
  source: string,
): Promise<{ storageLocation?: string; runId?: string }> {
  if (!/^models:\//.test(source)) return {};
  const unresolved = (why: string) =>
    notFound(`Unable to fetch model from model URI source artifact location '${source}'.Error: ${why}`);
  const modelId = loggedModelIdOfSource(source);
  if (modelId !== undefined) {
    const model = await loggedModelSource(services, modelId);
    if (!model) throw unresolved(`Logged model with ID '${modelId}' not found.`);
    return { storageLocation: model.storageLocation, runId: model.runId || undefined };
  }
  const named = /^models:\/+([^/]+)\/(\d+)\/?$/.exec(source);
  if (!named) return {};
  // A version of a registered model: its files are where that version's are (when it exists).
  const version = await store.loadModelVersion(services.knex, named[1]!, Number(named[2]));
  return version ? { storageLocation: version.storageLocation ?? version.source } : {};
}

export async function createModelVersion(
  services: Services,
  input: {
    name: string;
    source: string;
    runId?: string;
    runLink?: string;
    description?: string;
    tags?: KeyValue[];
    /** The logged model the version is made from (MLflow 3): its mlflow.modelVersions tag lists the version. */
    modelId?: string;
  },
): Promise<ModelVersionRecord> {
  checkText("name", input.name);
  checkText("source", input.source);
  if (input.runId !== undefined) checkText("run_id", input.runId);
  if (input.runLink !== undefined) checkText("run_link", input.runLink);
  if (input.description !== undefined) checkText("description", input.description);
  const tags = checkedTags("Model version tag", input.tags ?? []);
  const resolved = await resolveModelsSource(services, input.source);
  const created = await services.knex.transaction(async (trx) => {
    const now = nowMs();
    const version = await store.allocateVersion(trx, input.name, now);
    if (version === undefined) throw modelNotFound(input.name);
    await store.insertModelVersion(
      trx,
      {
        name: input.name,
        version,
        creation_timestamp: now,
        last_updated_timestamp: now,
        last_stage_transition: now,
        user_id: "",
        current_stage: "None",
        description: input.description ?? "",
        source: input.source,
        run_id: input.runId || resolved.runId || "",
        run_link: input.runLink ?? "",
        status: "READY",
        status_message: "",
        model_id: input.modelId ?? loggedModelIdOfSource(input.source) ?? null,
        storage_location: resolved.storageLocation ?? null,
      },
      swapRequestTags(services, tags),
    );
    return loadOrThrow(trx, input.name, version);
  });
  if (input.modelId) await recordModelVersion(services, input.modelId, created.name, created.version);
  return created;
}

export async function getModelVersion(services: Services, ref: VersionRef): Promise<ModelVersionRecord> {
  const { name, version } = resolve(ref);
  return loadOrThrow(services.knex, name, version);
}

/** Replaces the description when one is given; without it nothing changes. */
export async function updateModelVersion(
  services: Services,
  ref: VersionRef,
  description: string | undefined,
): Promise<ModelVersionRecord> {
  const { name, version } = resolve(ref);
  if (description === undefined) return loadOrThrow(services.knex, name, version);
  checkText("description", description);
  return services.knex.transaction(async (trx) => {
    const changed = await store.updateModelVersionRow(trx, name, version, {
      description,
      last_updated_timestamp: nowMs(),
    });
    if (!changed) throw versionNotFound(name, version);
    return loadOrThrow(trx, name, version);
  });
}

/** Deletes a version with its tags; its number is never handed out again. */
export async function deleteModelVersion(services: Services, ref: VersionRef): Promise<void> {
  const { name, version } = resolve(ref);
  await services.knex.transaction(async (trx) => {
    if (!(await findRegisteredModelRow(trx, name, true))) throw versionNotFound(name, version);
    if (!(await store.deleteModelVersionRow(trx, name, version))) throw versionNotFound(name, version);
    await updateRegisteredModelRow(trx, name, { last_updated_timestamp: nowMs() });
  });
}

/**
 * Where the version's artifacts can be fetched: its storage location when it has one (a version
 * registered from a logged model: the model's artifact location), else its source (tracker keeps
 * no copy).
 */
export async function getModelVersionDownloadUri(services: Services, ref: VersionRef): Promise<string> {
  const version = await getModelVersion(services, ref);
  return version.storageLocation ?? version.source;
}

/**
 * Moves a version to a stage. With archiveExistingVersions (only for Staging and Production), every
 * other version of the model in that stage moves to Archived in the same transaction. The model
 * row is locked first, so concurrent transitions of one model run one after the other and each
 * sees the stages the previous one left: at most one version holds the stage afterwards.
 */
export async function transitionModelVersionStage(
  services: Services,
  ref: VersionRef,
  stageInput: string,
  archiveExistingVersions: boolean,
): Promise<ModelVersionRecord> {
  const { name, version } = resolve(ref);
  const stage = canonicalStage(stageInput);
  if (archiveExistingVersions && !ACTIVE_STAGES.has(stage)) {
    throw invalidParameter(
      `archive_existing_versions may be true only when the target stage is Staging or Production, not ${stage}`,
    );
  }
  return services.knex.transaction(async (trx) => {
    if (!(await findRegisteredModelRow(trx, name, true))) throw versionNotFound(name, version);
    const now = nowMs();
    const moved = await store.updateModelVersionRow(trx, name, version, {
      current_stage: stage,
      last_updated_timestamp: now,
      last_stage_transition: now,
    });
    if (!moved) throw versionNotFound(name, version);
    if (archiveExistingVersions) await store.archiveVersionsInStage(trx, name, stage, version, now);
    await updateRegisteredModelRow(trx, name, { last_updated_timestamp: now });
    return loadOrThrow(trx, name, version);
  });
}

export async function setModelVersionTag(services: Services, ref: VersionRef, tag: KeyValue): Promise<void> {
  const { name, version } = resolve(ref);
  checkTag("Model version tag", tag);
  await services.knex.transaction(async (trx) => {
    if (!(await store.updateModelVersionRow(trx, name, version, { last_updated_timestamp: nowMs() })))
      throw versionNotFound(name, version);
    await store.upsertModelVersionTag(trx, name, version, {
      key: swapRequestTagKey(services, tag.key),
      value: tag.value,
    });
  });
}

/** Removes the tag with exactly this key; a key the version does not have changes nothing. */
export async function deleteModelVersionTag(services: Services, ref: VersionRef, key: string): Promise<void> {
  const { name, version } = resolve(ref);
  checkTagKey("Model version tag", key);
  await services.knex.transaction(async (trx) => {
    if (!(await store.findModelVersionRow(trx, name, version, true))) throw versionNotFound(name, version);
    if ((await store.deleteModelVersionTag(trx, name, version, swapRequestTagKey(services, key))) > 0) {
      await store.updateModelVersionRow(trx, name, version, { last_updated_timestamp: nowMs() });
    }
  });
}

export interface ModelVersionSearch {
  filter?: string;
  orderBy?: readonly string[];
  maxResults?: number;
  pageToken?: string;
}

/**
 * One page of versions matching the filter, in the requested order; ties (and the whole order
 * without order_by) by last_updated_timestamp descending, name ascending, version descending.
 */
export async function searchModelVersions(
  services: Services,
  query: ModelVersionSearch,
): Promise<Page<ModelVersionRecord>> {
  const maxResults = query.maxResults ?? VERSION_SEARCH_LIMITS.defaultMaxResults;
  checkMaxResults(maxResults, VERSION_SEARCH_LIMITS.maxResults);
  if (query.filter !== undefined) checkText("filter", query.filter);
  const { rows, nextPageToken } = await searchModelVersionRows(services.knex, {
    scope: "model-versions/search",
    filter: storedTagFilter(services, parseModelVersionFilter(query.filter)),
    orderBy: query.orderBy,
    maxResults,
    pageToken: query.pageToken,
  });
  return { items: await store.withVersionTags(services.knex, rows), nextPageToken };
}
