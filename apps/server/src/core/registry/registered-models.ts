import type { Knex } from "knex";
import { parseRegisteredModelFilter, searchRegisteredModelRows } from "../../search/index.js";
import { checkMaxResults } from "../../search/search-options.js";
import { nowMs } from "../clock.js";
import { alreadyExists } from "../errors.js";
import type { KeyValue, Page } from "../model.js";
import type { Services } from "../services.js";
import { storedTagFilter, swapRequestTagKey, swapRequestTags } from "../request-tags.js";
import { isUniqueViolation } from "../../store/unique-violation.js";
import * as store from "../../store/registry/registered-models.js";
import { latestVersionsOf } from "../../store/registry/model-versions.js";
import { checkedTags, checkModelName, checkTag, checkTagKey, checkText } from "./checks.js";
import { canonicalStage, modelNotFound, STAGES, type ModelVersionRecord, type RegisteredModelRecord } from "./model.js";

/**
 * Registered models (revision C): create, read, rename, describe, tag, delete, list and search.
 * Every write runs in one transaction that first locks the model's row, so writes to one model
 * (and to its versions, see model-versions.ts) are serialized by the database.
 */

export const MODEL_SEARCH_LIMITS = { defaultMaxResults: 100, maxResults: 1000 } as const;

const taken = (name: string) => alreadyExists(`Registered Model (name=${name}) already exists.`);

async function loadOrThrow(db: Knex, name: string): Promise<RegisteredModelRecord> {
  const model = await store.loadRegisteredModel(db, name);
  if (!model) throw modelNotFound(name);
  return model;
}

export async function createRegisteredModel(
  services: Services,
  input: { name: string; description?: string; tags?: KeyValue[] },
): Promise<RegisteredModelRecord> {
  checkModelName(input.name);
  if (input.description !== undefined) checkText("description", input.description);
  const tags = checkedTags("Registered model tag", input.tags ?? []);
  try {
    return await services.knex.transaction(async (trx) => {
      const now = nowMs();
      await store.insertRegisteredModel(
        trx,
        {
          name: input.name,
          creation_timestamp: now,
          last_updated_timestamp: now,
          description: input.description ?? "",
          user_id: "",
        },
        swapRequestTags(services, tags),
      );
      return loadOrThrow(trx, input.name);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(input.name);
    throw err;
  }
}

export async function getRegisteredModel(services: Services, name: string): Promise<RegisteredModelRecord> {
  checkText("name", name);
  return loadOrThrow(services.knex, name);
}

/** Renames a model; its versions and tags follow (ON UPDATE CASCADE). Without newName nothing changes. */
export async function renameRegisteredModel(
  services: Services,
  name: string,
  newName: string | undefined,
): Promise<RegisteredModelRecord> {
  checkText("name", name);
  if (newName === undefined) return loadOrThrow(services.knex, name);
  checkModelName(newName, "new_name");
  try {
    return await services.knex.transaction(async (trx) => {
      if (!(await store.findRegisteredModelRow(trx, name, true))) throw modelNotFound(name);
      if (newName !== name) {
        const now = nowMs();
        await store.updateRegisteredModelRow(trx, name, { name: newName, last_updated_timestamp: now });
        await store.touchVersionsOf(trx, newName, now);
      }
      return loadOrThrow(trx, newName);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(newName);
    throw err;
  }
}

/** Replaces the description when one is given; without it nothing changes. */
export async function updateRegisteredModel(
  services: Services,
  name: string,
  description: string | undefined,
): Promise<RegisteredModelRecord> {
  checkText("name", name);
  if (description === undefined) return loadOrThrow(services.knex, name);
  checkText("description", description);
  return services.knex.transaction(async (trx) => {
    if (!(await store.updateRegisteredModelRow(trx, name, { description, last_updated_timestamp: nowMs() })))
      throw modelNotFound(name);
    return loadOrThrow(trx, name);
  });
}

/** Deletes a model with all its versions and the tags of both. */
export async function deleteRegisteredModel(services: Services, name: string): Promise<void> {
  checkText("name", name);
  if (!(await store.deleteRegisteredModelRow(services.knex, name))) throw modelNotFound(name);
}

export async function setRegisteredModelTag(services: Services, name: string, tag: KeyValue): Promise<void> {
  checkText("name", name);
  checkTag("Registered model tag", tag);
  await services.knex.transaction(async (trx) => {
    if (!(await store.updateRegisteredModelRow(trx, name, { last_updated_timestamp: nowMs() })))
      throw modelNotFound(name);
    await store.upsertRegisteredModelTag(trx, name, { key: swapRequestTagKey(services, tag.key), value: tag.value });
  });
}

/** Removes the tag with exactly this key; a key the model does not have changes nothing. */
export async function deleteRegisteredModelTag(services: Services, name: string, key: string): Promise<void> {
  checkText("name", name);
  checkTagKey("Registered model tag", key);
  await services.knex.transaction(async (trx) => {
    if (!(await store.findRegisteredModelRow(trx, name, true))) throw modelNotFound(name);
    if ((await store.deleteRegisteredModelTag(trx, name, swapRequestTagKey(services, key))) > 0) {
      await store.updateRegisteredModelRow(trx, name, { last_updated_timestamp: nowMs() });
    }
  });
}

export interface RegisteredModelSearch {
  filter?: string;
  orderBy?: readonly string[];
  maxResults?: number;
  pageToken?: string;
}

/** One page of models matching the filter, in the requested order (ties: name ascending). */
export async function searchRegisteredModels(
  services: Services,
  query: RegisteredModelSearch,
  operation = "search",
): Promise<Page<RegisteredModelRecord>> {
  const maxResults = query.maxResults ?? MODEL_SEARCH_LIMITS.defaultMaxResults;
  checkMaxResults(maxResults, MODEL_SEARCH_LIMITS.maxResults);
  if (query.filter !== undefined) checkText("filter", query.filter);
  const { rows, nextPageToken } = await searchRegisteredModelRows(services.knex, {
    scope: `registered-models/${operation}`,
    filter: storedTagFilter(services, parseRegisteredModelFilter(query.filter)),
    orderBy: query.orderBy,
    maxResults,
    pageToken: query.pageToken,
  });
  return { items: await store.withModelDetails(services.knex, rows), nextPageToken };
}

/** registered-models/list (deprecated): every model by name ascending, paged. */
export function listRegisteredModels(
  services: Services,
  query: { maxResults?: number; pageToken?: string },
): Promise<Page<RegisteredModelRecord>> {
  return searchRegisteredModels(services, { maxResults: query.maxResults, pageToken: query.pageToken }, "list");
}

/**
 * The highest-numbered READY version of each requested stage (every stage, None included, when
 * none is requested), in the order None, Staging, Production, Archived.
 */
export async function getLatestVersions(
  services: Services,
  name: string,
  stages: readonly string[],
): Promise<ModelVersionRecord[]> {
  checkText("name", name);
  const wanted = stages.length === 0 ? [...STAGES] : [...new Set(stages.map(canonicalStage))];
  if (!(await store.findRegisteredModelRow(services.knex, name))) throw modelNotFound(name);
  const latest = await latestVersionsOf(services.knex, [name], wanted);
  return latest.get(name) ?? [];
}
