// Logged models (MLflow 3) from tracker's extensions (spec/ext.yaml): models with their own id,
// params, tags, metrics and artifacts, which model versions can be registered from.
import { ClientCore } from "./client-core.js";
import type { components } from "./generated/ext.js";
import { expectData, expectOk } from "./response.js";

export type LoggedModel = components["schemas"]["LoggedModel"];
export type LoggedModelStatus = components["schemas"]["LoggedModelStatus"];
export type LoggedModelKeyValue = components["schemas"]["LoggedModelKeyValue"];
export type SearchLoggedModelsRequest = components["schemas"]["SearchLoggedModelsRequest"];
export type SearchLoggedModelsResponse = components["schemas"]["SearchLoggedModelsResponse"];
export type LoggedModelArtifacts = components["schemas"]["ListLoggedModelArtifactsResponse"];

export interface CreateLoggedModelOptions {
  name?: string;
  modelType?: string;
  sourceRunId?: string;
  params?: Record<string, string>;
  tags?: Record<string, string>;
}

const keyValues = (record: Record<string, string> | undefined): LoggedModelKeyValue[] =>
  Object.entries(record ?? {}).map(([key, value]) => ({ key, value }));

const MODEL = "/api/2.0/tracker/logged-models/{model_id}" as const;

export class LoggedModelsClient extends ClientCore {
  /** Creates a PENDING model in the experiment; its files go below its `artifact_uri`. */
  async createLoggedModel(experimentId: string, options: CreateLoggedModelOptions = {}): Promise<LoggedModel> {
    const data = await expectData(
      this.ext.POST("/api/2.0/tracker/logged-models", {
        body: {
          experiment_id: experimentId,
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.modelType === undefined ? {} : { model_type: options.modelType }),
          ...(options.sourceRunId === undefined ? {} : { source_run_id: options.sourceRunId }),
          params: keyValues(options.params),
          tags: keyValues(options.tags),
        },
      }),
    );
    return data.model;
  }

  /** The model; a deleted one only with `allowDeleted`. */
  async getLoggedModel(modelId: string, allowDeleted = false): Promise<LoggedModel> {
    const data = await expectData(
      this.ext.GET(MODEL, {
        params: { path: { model_id: modelId }, query: allowDeleted ? { allow_deleted: true } : {} },
      }),
    );
    return data.model;
  }

  /** Sets the model's status: READY once its files are uploaded, UPLOAD_FAILED when that failed. */
  async finalizeLoggedModel(modelId: string, status: LoggedModelStatus = "LOGGED_MODEL_READY"): Promise<LoggedModel> {
    const data = await expectData(
      this.ext.PATCH(MODEL, { params: { path: { model_id: modelId } }, body: { model_id: modelId, status } }),
    );
    return data.model;
  }

  /** Marks the model deleted (its versions in the registry stay). */
  async deleteLoggedModel(modelId: string): Promise<void> {
    await expectOk(this.ext.DELETE(MODEL, { params: { path: { model_id: modelId } } }));
  }

  async setLoggedModelTags(modelId: string, tags: Record<string, string>): Promise<void> {
    await expectOk(
      this.ext.PATCH("/api/2.0/tracker/logged-models/{model_id}/tags", {
        params: { path: { model_id: modelId } },
        body: { tags: keyValues(tags) },
      }),
    );
  }

  async deleteLoggedModelTag(modelId: string, key: string): Promise<void> {
    await expectOk(
      this.ext.DELETE("/api/2.0/tracker/logged-models/{model_id}/tags/{tag_key}", {
        params: { path: { model_id: modelId, tag_key: key } },
      }),
    );
  }

  /** Adds params (keys the model has already are refused), in requests of at most 100. */
  async logLoggedModelParams(modelId: string, params: Record<string, string>): Promise<void> {
    const all = keyValues(params);
    for (let i = 0; i < all.length; i += 100) {
      await expectOk(
        this.ext.POST("/api/2.0/tracker/logged-models/{model_id}/params", {
          params: { path: { model_id: modelId } },
          body: { model_id: modelId, params: all.slice(i, i + 100) },
        }),
      );
    }
  }

  /** One level of the model's artifacts, below `directory` when given. */
  async listLoggedModelArtifacts(modelId: string, directory?: string): Promise<LoggedModelArtifacts> {
    return expectData(
      this.ext.GET("/api/2.0/tracker/logged-models/{model_id}/artifacts/directories", {
        params: {
          path: { model_id: modelId },
          query: directory === undefined ? {} : { artifact_directory_path: directory },
        },
      }),
    );
  }

  /** One page of models of the experiments (see SearchLoggedModelsRequest for filter and order_by). */
  async searchLoggedModels(request: SearchLoggedModelsRequest): Promise<SearchLoggedModelsResponse> {
    return expectData(this.ext.POST("/api/2.0/tracker/logged-models/search", { body: request }));
  }
}
