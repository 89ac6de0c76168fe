import * as versions from "../../core/registry/model-versions.js";
import type { ModelVersionRecord, RegisteredModelRecord } from "../../core/registry/model.js";
import * as models from "../../core/registry/registered-models.js";
import { invalidParameter, missingValue } from "../../core/errors.js";
import type { Page } from "../../core/model.js";
import { requireField } from "../../core/values.js";
import { handlerTable } from "../operation-handler.js";
import type { SchemasC, SchemasExt } from "../schemas.js";
import { keyValues, listOf, optionalInt } from "../input.js";
import { tagNamespaceOf } from "../../core/services.js";
import { swapTagsNamespace } from "../../domain/system-tags.js";

/** The model registry of revision C: registered models and model versions. */

/**
 * A model version as revision C has it, its tags in the request's system-tag namespace; with
 * `aliases` (MLflow 2.3+) for requests through MLflow's paths and in the extensions' answers.
 */
export function modelVersionOut(
  v: ModelVersionRecord,
  namespace: string,
  withAliases: true,
): SchemasExt["ModelVersionWithAliases"];
export function modelVersionOut(
  v: ModelVersionRecord,
  namespace: string,
  withAliases?: boolean,
): SchemasC["ModelVersion"];
export function modelVersionOut(
  v: ModelVersionRecord,
  namespace: string,
  withAliases = false,
): SchemasC["ModelVersion"] | SchemasExt["ModelVersionWithAliases"] {
  const base = {
    name: v.name,
    version: String(v.version),
    creation_timestamp: v.creationTimestamp,
    last_updated_timestamp: v.lastUpdatedTimestamp,
    user_id: v.userId,
    current_stage: v.currentStage,
    description: v.description,
    source: v.source,
    run_id: v.runId,
    status: v.status,
    status_message: v.statusMessage,
    tags: swapTagsNamespace(namespace, v.tags),
    run_link: v.runLink,
  } satisfies SchemasC["ModelVersion"];
  return withAliases ? ({ ...base, aliases: v.aliases } satisfies SchemasExt["ModelVersionWithAliases"]) : base;
}

/** A registered model of revision C; requests through MLflow's paths also get its aliases. */
type RegisteredModelOut = SchemasC["RegisteredModel"] & { aliases?: SchemasExt["RegisteredModelAlias"][] };

/** user_id is left out of RegisteredModel: "omitted from responses at present" (spec part 2). */
export function registeredModelOut(
  m: RegisteredModelRecord,
  namespace: string,
  withAliases = false,
): RegisteredModelOut {
  const base = {
    name: m.name,
    creation_timestamp: m.creationTimestamp,
    last_updated_timestamp: m.lastUpdatedTimestamp,
    description: m.description,
    latest_versions: m.latestVersions.map((v) => modelVersionOut(v, namespace, withAliases)),
    tags: swapTagsNamespace(namespace, m.tags),
  } satisfies SchemasC["RegisteredModel"];
  return withAliases
    ? { ...base, aliases: m.aliases.map((a) => ({ alias: a.alias, version: String(a.version) })) }
    : base;
}

const modelPage = (page: Page<RegisteredModelRecord>, namespace: string, withAliases: boolean) => {
  const body = { registered_models: page.items.map((m) => registeredModelOut(m, namespace, withAliases)) };
  return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
};

const versionRef = (input: { name?: string; version?: string }): versions.VersionRef => ({
  name: requireField("name", input.name),
  version: requireField("version", input.version),
});

/** A boolean field; a query string or an older client may send "true" or "false". */
function requiredBoolean(field: string, value: boolean | string | undefined): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  if (value === undefined || value === null) throw missingValue(field);
  throw invalidParameter(`Invalid value ${JSON.stringify(value)} for parameter '${field}': expected true or false`);
}

/** model-versions/create's `model_id` (MLflow 3): the logged model a version is registered from. */
const modelIdOf = (input: object): string | undefined =>
  "model_id" in input && typeof input.model_id === "string" && input.model_id !== "" ? input.model_id : undefined;

export const registryHandlers = handlerTable({
  // ----- registered models -----
  async createRegisteredModel({ input, services, mlflow }) {
    const model = await models.createRegisteredModel(services, {
      name: requireField("name", input.name),
      description: input.description,
      tags: keyValues(input.tags),
    });
    return { registered_model: registeredModelOut(model, tagNamespaceOf(services), mlflow) };
  },

  async getRegisteredModel({ input, services, mlflow }) {
    return {
      registered_model: registeredModelOut(
        await models.getRegisteredModel(services, requireField("name", input.name)),
        tagNamespaceOf(services),
        mlflow,
      ),
    };
  },

  async renameRegisteredModel({ input, services, mlflow }) {
    const model = await models.renameRegisteredModel(services, requireField("name", input.name), input.new_name);
    return { registered_model: registeredModelOut(model, tagNamespaceOf(services), mlflow) };
  },

  async updateRegisteredModel({ input, services, mlflow }) {
    const model = await models.updateRegisteredModel(services, requireField("name", input.name), input.description);
    return { registered_model: registeredModelOut(model, tagNamespaceOf(services), mlflow) };
  },

  async deleteRegisteredModel({ input, services }) {
    await models.deleteRegisteredModel(services, requireField("name", input.name));
    return {};
  },

  async listRegisteredModels({ input, services, mlflow }) {
    return modelPage(
      await models.listRegisteredModels(services, {
        maxResults: optionalInt("max_results", input.max_results),
        pageToken: input.page_token,
      }),
      tagNamespaceOf(services),
      mlflow,
    );
  },

  async searchRegisteredModels({ input, services, mlflow }) {
    return modelPage(
      await models.searchRegisteredModels(services, {
        filter: input.filter,
        orderBy: listOf(input.order_by),
        maxResults: optionalInt("max_results", input.max_results),
        pageToken: input.page_token,
      }),
      tagNamespaceOf(services),
      mlflow,
    );
  },

  async getLatestVersions({ input, services, mlflow }) {
    const latest = await models.getLatestVersions(services, requireField("name", input.name), listOf(input.stages));
    return { model_versions: latest.map((v) => modelVersionOut(v, tagNamespaceOf(services), mlflow)) };
  },

  async setRegisteredModelTag({ input, services }) {
    await models.setRegisteredModelTag(services, requireField("name", input.name), {
      key: requireField("key", input.key),
      value: input.value ?? "",
    });
    return {};
  },

  async deleteRegisteredModelTag({ input, services }) {
    await models.deleteRegisteredModelTag(services, requireField("name", input.name), requireField("key", input.key));
    return {};
  },

  // ----- model versions -----
  async createModelVersion({ input, services, mlflow }) {
    const version = await versions.createModelVersion(services, {
      name: requireField("name", input.name),
      source: requireField("source", input.source),
      runId: input.run_id,
      runLink: input.run_link,
      description: input.description,
      tags: keyValues(input.tags),
      modelId: modelIdOf(input),
    });
    return { model_version: modelVersionOut(version, tagNamespaceOf(services), mlflow) };
  },

  async getModelVersion({ input, services, mlflow }) {
    return {
      model_version: modelVersionOut(
        await versions.getModelVersion(services, versionRef(input)),
        tagNamespaceOf(services),
        mlflow,
      ),
    };
  },

  async updateModelVersion({ input, services, mlflow }) {
    const version = await versions.updateModelVersion(services, versionRef(input), input.description);
    return { model_version: modelVersionOut(version, tagNamespaceOf(services), mlflow) };
  },

  async deleteModelVersion({ input, services }) {
    await versions.deleteModelVersion(services, versionRef(input));
    return {};
  },

  async searchModelVersions({ input, services, mlflow }) {
    const page = await versions.searchModelVersions(services, {
      filter: input.filter,
      orderBy: listOf(input.order_by),
      maxResults: optionalInt("max_results", input.max_results),
      pageToken: input.page_token,
    });
    const body = { model_versions: page.items.map((v) => modelVersionOut(v, tagNamespaceOf(services), mlflow)) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async getModelVersionDownloadUri({ input, services }) {
    return { artifact_uri: await versions.getModelVersionDownloadUri(services, versionRef(input)) };
  },

  async transitionModelVersionStage({ input, services, mlflow }) {
    const version = await versions.transitionModelVersionStage(
      services,
      versionRef(input),
      requireField("stage", input.stage),
      requiredBoolean("archive_existing_versions", input.archive_existing_versions),
    );
    return { model_version: modelVersionOut(version, tagNamespaceOf(services), mlflow) };
  },

  async setModelVersionTag({ input, services }) {
    await versions.setModelVersionTag(services, versionRef(input), {
      key: requireField("key", input.key),
      value: input.value ?? "",
    });
    return {};
  },

  async deleteModelVersionTag({ input, services }) {
    await versions.deleteModelVersionTag(services, versionRef(input), requireField("key", input.key));
    return {};
  },
});
