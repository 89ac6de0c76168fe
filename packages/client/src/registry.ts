// The model registry half of the ergonomic client: registered models and model versions.
// Every method calls one operation of revision C.
import type { ModelVersion, ModelVersionStageInput, RegisteredModel, TagsInput, VersionInput } from "./entities.js";
import { Paginated } from "./pagination.js";
import { searchRequestFields } from "./search-request.js";
import { ClientCore } from "./client-core.js";
import { expectData, expectOk } from "./response.js";
import { toKeyValues } from "./wire.js";

export interface CreateRegisteredModelOptions {
  description?: string;
  tags?: TagsInput;
}

export interface SearchRegisteredModelsOptions {
  /** One condition on the name: `name = 'x'`, `name LIKE 'x'` or `name ILIKE 'x'`. */
  filter?: string;
  /** Sort keys over `name` and `last_updated_timestamp`, e.g. `["name DESC"]`. */
  orderBy?: string[];
  /** Models fetched per request (1 to 1000; the server's default is 100). */
  pageSize?: number;
}

export interface CreateModelVersionOptions {
  /** Id of the run that produced the model. */
  runId?: string;
  /** Link to the producing run when it lives on another tracking server. */
  runLink?: string;
  description?: string;
  tags?: TagsInput;
}

export interface SearchModelVersionsOptions {
  /** One condition: `name = '<model>'`, `run_id = '<run id>'` or `source_path = '<uri>'`. */
  filter?: string;
  /** Sort keys over `name`, `version`, `stage` and `last_updated_timestamp`, e.g. `["version DESC"]`. */
  orderBy?: string[];
  /** Versions fetched per request (1 to 200 000; the server's default is 10 000). */
  pageSize?: number;
}

export interface TransitionStageOptions {
  /** Move the versions already in the target stage to Archived (only for Staging and Production). */
  archiveExistingVersions?: boolean;
}

/** Model registry operations of revision C, named and shaped after MLflow's MlflowClient. */
export class RegistryClient extends ClientCore {
  // ----- registered models -----

  async createRegisteredModel(name: string, options: CreateRegisteredModelOptions = {}): Promise<RegisteredModel> {
    const body = { name, description: options.description, tags: options.tags && toKeyValues(options.tags) };
    const data = await expectData(this.raw.POST("/2.0/preview/tracker/registered-models/create", { body }));
    return data.registered_model;
  }

  /** The model with its tags and its latest version per stage. */
  async getRegisteredModel(name: string): Promise<RegisteredModel> {
    const data = await expectData(
      this.raw.GET("/2.0/preview/tracker/registered-models/get", { params: { query: { name } } }),
    );
    return data.registered_model;
  }

  async renameRegisteredModel(name: string, newName: string): Promise<RegisteredModel> {
    const data = await expectData(
      this.raw.POST("/2.0/preview/tracker/registered-models/rename", { body: { name, new_name: newName } }),
    );
    return data.registered_model;
  }

  async updateRegisteredModel(name: string, description: string): Promise<RegisteredModel> {
    const data = await expectData(
      this.raw.PATCH("/2.0/preview/tracker/registered-models/update", { body: { name, description } }),
    );
    return data.registered_model;
  }

  /** Deletes the model with all its versions and tags, for good. */
  async deleteRegisteredModel(name: string): Promise<void> {
    await expectOk(this.raw.DELETE("/2.0/preview/tracker/registered-models/delete", { body: { name } }));
  }

  /** Registered models matching the options, over all pages. */
  searchRegisteredModels(options: SearchRegisteredModelsOptions = {}): Paginated<RegisteredModel> {
    return new Paginated(async (pageToken) => {
      const query = searchRequestFields(options, pageToken);
      const data = await expectData(
        this.raw.GET("/2.0/preview/tracker/registered-models/search", { params: { query } }),
      );
      return { items: data.registered_models, nextPageToken: data.next_page_token };
    });
  }

  /** The highest READY version in each of the given stages (all stages when omitted). */
  async getLatestVersions(name: string, stages?: readonly ModelVersionStageInput[]): Promise<ModelVersion[]> {
    const body = { name, stages: stages && [...stages] };
    const data = await expectData(this.raw.POST("/2.0/tracker/registered-models/get-latest-versions", { body }));
    return data.model_versions;
  }

  async setRegisteredModelTag(name: string, key: string, value: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/preview/tracker/registered-models/set-tag", { body: { name, key, value } }));
  }

  async deleteRegisteredModelTag(name: string, key: string): Promise<void> {
    await expectOk(this.raw.DELETE("/2.0/preview/tracker/registered-models/delete-tag", { body: { name, key } }));
  }

  // ----- model versions -----

  /** Registers the model artifacts at `source` as the next version of a registered model. */
  async createModelVersion(
    name: string,
    source: string,
    options: CreateModelVersionOptions = {},
  ): Promise<ModelVersion> {
    const body = {
      name,
      source,
      run_id: options.runId,
      run_link: options.runLink,
      description: options.description,
      tags: options.tags && toKeyValues(options.tags),
    };
    const data = await expectData(this.raw.POST("/2.0/preview/tracker/model-versions/create", { body }));
    return data.model_version;
  }

  async getModelVersion(name: string, version: VersionInput): Promise<ModelVersion> {
    const query = { name, version: String(version) };
    const data = await expectData(this.raw.GET("/2.0/preview/tracker/model-versions/get", { params: { query } }));
    return data.model_version;
  }

  async updateModelVersion(name: string, version: VersionInput, description: string): Promise<ModelVersion> {
    const body = { name, version: String(version), description };
    const data = await expectData(this.raw.PATCH("/2.0/preview/tracker/model-versions/update", { body }));
    return data.model_version;
  }

  /** Deletes one version with its tags, for good; its number is not handed out again. */
  async deleteModelVersion(name: string, version: VersionInput): Promise<void> {
    await expectOk(
      this.raw.DELETE("/2.0/preview/tracker/model-versions/delete", { body: { name, version: String(version) } }),
    );
  }

  /** Model versions matching the options, over all pages. */
  searchModelVersions(options: SearchModelVersionsOptions = {}): Paginated<ModelVersion> {
    return new Paginated(async (pageToken) => {
      const query = searchRequestFields(options, pageToken);
      const data = await expectData(this.raw.GET("/2.0/preview/tracker/model-versions/search", { params: { query } }));
      return { items: data.model_versions, nextPageToken: data.next_page_token };
    });
  }

  /** The URI the version's model artifacts can be downloaded from. */
  async getModelVersionDownloadUri(name: string, version: VersionInput): Promise<string> {
    const query = { name, version: String(version) };
    const data = await expectData(
      this.raw.GET("/2.0/preview/tracker/model-versions/get-download-uri", { params: { query } }),
    );
    return data.artifact_uri;
  }

  /** Moves a version to a stage (None, Staging, Production, Archived; any case). */
  async transitionModelVersionStage(
    name: string,
    version: VersionInput,
    stage: ModelVersionStageInput,
    options: TransitionStageOptions = {},
  ): Promise<ModelVersion> {
    const body = {
      name,
      version: String(version),
      stage,
      archive_existing_versions: options.archiveExistingVersions ?? false,
    };
    const data = await expectData(this.raw.POST("/2.0/preview/tracker/model-versions/transition-stage", { body }));
    return data.model_version;
  }

  async setModelVersionTag(name: string, version: VersionInput, key: string, value: string): Promise<void> {
    const body = { name, version: String(version), key, value };
    await expectOk(this.raw.POST("/2.0/preview/tracker/model-versions/set-tag", { body }));
  }

  async deleteModelVersionTag(name: string, version: VersionInput, key: string): Promise<void> {
    const body = { name, version: String(version), key };
    await expectOk(this.raw.DELETE("/2.0/preview/tracker/model-versions/delete-tag", { body }));
  }
}
