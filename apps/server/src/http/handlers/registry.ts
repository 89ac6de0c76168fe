import * as versions from "../../core/registry/model-versions.js";
import type { ModelVersionRecord, RegisteredModelRecord } from "../../core/registry/model.js";
import * as models from "../../core/registry/registered-models.js";
import { invalidParameter, missingValue } from "../../core/errors.js";
import type { Page } from "../../core/model.js";
import type { HandlerTable } from "../operation-handler.js";
import { keyValues, optionalInt, optionalString, requiredString, stringArray, type Input } from "../input.js";

/** The model registry of revision C: registered models and model versions. */

/**
 * A model version as revision C has it; with `aliases` (MLflow 2.3+) for requests through MLflow's
 * paths and in the extensions' answers.
 */
export function modelVersionOut(v: ModelVersionRecord, withAliases = false) {
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
    tags: v.tags,
    run_link: v.runLink,
  };
  return withAliases ? { ...base, aliases: v.aliases } : base;
}

/** user_id is left out of RegisteredModel: "omitted from responses at present" (spec part 2). */
export function registeredModelOut(m: RegisteredModelRecord, withAliases = false) {
  const base = {
    name: m.name,
    creation_timestamp: m.creationTimestamp,
    last_updated_timestamp: m.lastUpdatedTimestamp,
    description: m.description,
    latest_versions: m.latestVersions.map((v) => modelVersionOut(v, withAliases)),
    tags: m.tags,
  };
  return withAliases
    ? { ...base, aliases: m.aliases.map((a) => ({ alias: a.alias, version: String(a.version) })) }
    : base;
}

const modelPage = (page: Page<RegisteredModelRecord>, withAliases: boolean) => {
  const body = { registered_models: page.items.map((m) => registeredModelOut(m, withAliases)) };
  return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
};

const versionRef = (input: Input): versions.VersionRef => ({
  name: requiredString(input, "name"),
  version: requiredString(input, "version"),
});

function requiredBoolean(input: Input, field: string): boolean {
  const value = input[field];
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  if (value === undefined || value === null) throw missingValue(field);
  throw invalidParameter(`Invalid value ${JSON.stringify(value)} for parameter '${field}': expected true or false`);
}

export const registryHandlers: HandlerTable = {
  // ----- registered models -----
  async createRegisteredModel({ input, services, mlflow }) {
    const model = await models.createRegisteredModel(services, {
      name: requiredString(input, "name"),
      description: optionalString(input, "description"),
      tags: keyValues(input, "tags"),
    });
    return { registered_model: registeredModelOut(model, mlflow) };
  },

  async getRegisteredModel({ input, services, mlflow }) {
    return {
      registered_model: registeredModelOut(
        await models.getRegisteredModel(services, requiredString(input, "name")),
        mlflow,
      ),
    };
  },

  async renameRegisteredModel({ input, services, mlflow }) {
    const model = await models.renameRegisteredModel(
      services,
      requiredString(input, "name"),
      optionalString(input, "new_name"),
    );
    return { registered_model: registeredModelOut(model, mlflow) };
  },

  async updateRegisteredModel({ input, services, mlflow }) {
    const model = await models.updateRegisteredModel(
      services,
      requiredString(input, "name"),
      optionalString(input, "description"),
    );
    return { registered_model: registeredModelOut(model, mlflow) };
  },

  async deleteRegisteredModel({ input, services }) {
    await models.deleteRegisteredModel(services, requiredString(input, "name"));
    return {};
  },

  async listRegisteredModels({ input, services, mlflow }) {
    return modelPage(
      await models.listRegisteredModels(services, {
        maxResults: optionalInt(input, "max_results"),
        pageToken: optionalString(input, "page_token"),
      }),
      mlflow,
    );
  },

  async searchRegisteredModels({ input, services, mlflow }) {
    return modelPage(
      await models.searchRegisteredModels(services, {
        filter: optionalString(input, "filter"),
        orderBy: stringArray(input, "order_by"),
        maxResults: optionalInt(input, "max_results"),
        pageToken: optionalString(input, "page_token"),
      }),
      mlflow,
    );
  },

  async getLatestVersions({ input, services, mlflow }) {
    const latest = await models.getLatestVersions(
      services,
      requiredString(input, "name"),
      stringArray(input, "stages"),
    );
    return { model_versions: latest.map((v) => modelVersionOut(v, mlflow)) };
  },

  async setRegisteredModelTag({ input, services }) {
    await models.setRegisteredModelTag(services, requiredString(input, "name"), {
      key: requiredString(input, "key"),
      value: optionalString(input, "value") ?? "",
    });
    return {};
  },

  async deleteRegisteredModelTag({ input, services }) {
    await models.deleteRegisteredModelTag(services, requiredString(input, "name"), requiredString(input, "key"));
    return {};
  },

  // ----- model versions -----
  async createModelVersion({ input, services, mlflow }) {
    const version = await versions.createModelVersion(services, {
      name: requiredString(input, "name"),
      source: requiredString(input, "source"),
      runId: optionalString(input, "run_id"),
      runLink: optionalString(input, "run_link"),
      description: optionalString(input, "description"),
      tags: keyValues(input, "tags"),
      modelId: optionalString(input, "model_id") || undefined,
    });
    return { model_version: modelVersionOut(version, mlflow) };
  },

  async getModelVersion({ input, services, mlflow }) {
    return { model_version: modelVersionOut(await versions.getModelVersion(services, versionRef(input)), mlflow) };
  },

  async updateModelVersion({ input, services, mlflow }) {
    const version = await versions.updateModelVersion(
      services,
      versionRef(input),
      optionalString(input, "description"),
    );
    return { model_version: modelVersionOut(version, mlflow) };
  },

  async deleteModelVersion({ input, services }) {
    await versions.deleteModelVersion(services, versionRef(input));
    return {};
  },

  async searchModelVersions({ input, services, mlflow }) {
    const page = await versions.searchModelVersions(services, {
      filter: optionalString(input, "filter"),
      orderBy: stringArray(input, "order_by"),
      maxResults: optionalInt(input, "max_results"),
      pageToken: optionalString(input, "page_token"),
    });
    const body = { model_versions: page.items.map((v) => modelVersionOut(v, mlflow)) };
    return page.nextPageToken ? { ...body, next_page_token: page.nextPageToken } : body;
  },

  async getModelVersionDownloadUri({ input, services }) {
    return { artifact_uri: await versions.getModelVersionDownloadUri(services, versionRef(input)) };
  },

  async transitionModelVersionStage({ input, services, mlflow }) {
    const version = await versions.transitionModelVersionStage(
      services,
      versionRef(input),
      requiredString(input, "stage"),
      requiredBoolean(input, "archive_existing_versions"),
    );
    return { model_version: modelVersionOut(version, mlflow) };
  },

  async setModelVersionTag({ input, services }) {
    await versions.setModelVersionTag(services, versionRef(input), {
      key: requiredString(input, "key"),
      value: optionalString(input, "value") ?? "",
    });
    return {};
  },

  async deleteModelVersionTag({ input, services }) {
    await versions.deleteModelVersionTag(services, versionRef(input), requiredString(input, "key"));
    return {};
  },
};
