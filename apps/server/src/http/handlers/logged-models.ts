import type { Request } from "express";
import * as models from "../../core/logged-models.js";
import type { LoggedModelRecord } from "../../core/logged-models.js";
import { missingValue } from "../../core/errors.js";
import type { Revision } from "../revisions.js";
import type { HandlerTable } from "../operation-handler.js";
import { experimentId, keyValues, optionalInt, optionalString, stringArray, type Input } from "../input.js";
import { linkedMetricOut } from "../shapes.js";
import { sendArtifact } from "../artifact-download.js";
import { toExperimentId } from "../../core/values.js";
import type { DatasetClause, LoggedModelOrderItem } from "../../search/logged-model-search.js";

/** MLflow 3's logged models (spec/ext.yaml, tag "Logged models"), shaped as MLflow's server answers them. */

/** MLflow's page size when max_results is absent (the proto default), and when it is 0 (the store's default). */
const DEFAULT_MAX_RESULTS = 50;
const ZERO_MAX_RESULTS = 100;

/** A path parameter the validator matched (decoded). */
const pathParam = (req: Request, name: string): string =>
  (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams?.[name] ?? "";

/** The model id of the request path. */
const pathModelId = (ctx: { req: Request }): string => pathParam(ctx.req, "model_id");

/** A field MLflow's request message requires: absent, null or "" is MLflow's missing-value error. */
function requiredNonEmpty(input: Input, field: string): string {
  const value = optionalString(input, field);
  if (value === undefined || value === "") throw missingValue(field);
  return value;
}

export function loggedModelOut(revision: Revision, m: LoggedModelRecord) {
  return {
    info: {
      model_id: m.modelId,
      experiment_id: String(m.experimentId),
      name: m.name,
      creation_timestamp_ms: m.creationTimestampMs,
      last_updated_timestamp_ms: m.lastUpdatedTimestampMs,
      artifact_uri: m.artifactUri,
      status: m.status,
      model_type: m.modelType,
      source_run_id: m.sourceRunId,
      ...(m.tags.length === 0 ? {} : { tags: m.tags }),
    },
    data: {
      ...(m.params.length === 0 ? {} : { params: m.params }),
      ...(m.metrics.length === 0 ? {} : { metrics: m.metrics.map((x) => linkedMetricOut(revision, x)) }),
    },
  };
}

function datasetClauses(input: Input): DatasetClause[] {
  const raw = input.datasets;
  if (!Array.isArray(raw)) return [];
  return (raw as Input[]).map((d) => {
    const digest = optionalString(d, "dataset_digest");
    return { name: optionalString(d, "dataset_name") ?? "", ...(digest ? { digest } : {}) };
  });
}

function orderItems(input: Input): LoggedModelOrderItem[] {
  const raw = input.order_by;
  if (!Array.isArray(raw)) return [];
  return (raw as Input[]).map((o) => {
    const datasetName = optionalString(o, "dataset_name");
    const datasetDigest = optionalString(o, "dataset_digest");
    return {
      fieldName: requiredNonEmpty(o, "field_name"),
      ascending: o.ascending === undefined || o.ascending === null ? true : o.ascending === true,
      ...(datasetName ? { datasetName } : {}),
      ...(datasetDigest ? { datasetDigest } : {}),
    };
  });
}

export const loggedModelHandlers: HandlerTable = {
  async createLoggedModel({ revision, input, services }) {
    const model = await models.createLoggedModel(services, {
      experimentId: experimentId(input),
      name: optionalString(input, "name"),
      modelType: optionalString(input, "model_type"),
      sourceRunId: optionalString(input, "source_run_id"),
      params: keyValues(input, "params"),
      tags: keyValues(input, "tags"),
    });
    return { model: loggedModelOut(revision, model) };
  },

  async getLoggedModel(ctx) {
    const allowDeleted = String(ctx.input.allow_deleted ?? "").toLowerCase() === "true";
    return {
      model: loggedModelOut(ctx.revision, await models.getLoggedModel(ctx.services, pathModelId(ctx), allowDeleted)),
    };
  },

  async finalizeLoggedModel({ revision, input, services }) {
    // As MLflow's handler: the body's model_id is the model finalized (the path's is not read).
    const modelId = requiredNonEmpty(input, "model_id");
    if (input.status === undefined || input.status === null || input.status === "") throw missingValue("status");
    const status = models.parseLoggedModelStatus(input.status);
    return { model: loggedModelOut(revision, await models.finalizeLoggedModel(services, modelId, status)) };
  },

  async deleteLoggedModel(ctx) {
    await models.deleteLoggedModel(ctx.services, pathModelId(ctx));
    return {};
  },

  async setLoggedModelTags(ctx) {
    await models.setLoggedModelTags(ctx.services, pathModelId(ctx), keyValues(ctx.input, "tags"));
    return {};
  },

  async deleteLoggedModelTag(ctx) {
    await models.deleteLoggedModelTag(ctx.services, pathModelId(ctx), pathParam(ctx.req, "tag_key"));
    return {};
  },

  async logLoggedModelParams(ctx) {
    requiredNonEmpty(ctx.input, "model_id");
    await models.logLoggedModelParams(ctx.services, pathModelId(ctx), keyValues(ctx.input, "params"));
    return {};
  },

  async listLoggedModelArtifacts(ctx) {
    const { rootUri, files } = await models.listLoggedModelArtifacts(
      ctx.services,
      pathModelId(ctx),
      optionalString(ctx.input, "artifact_directory_path"),
    );
    return {
      root_uri: rootUri,
      ...(files.length === 0
        ? {}
        : {
            files: files.map((f) =>
              f.isDir ? { path: f.path, is_dir: true } : { path: f.path, is_dir: false, file_size: f.fileSize },
            ),
          }),
    };
  },

  async getLoggedModelArtifactFile(ctx) {
    const file = await models.loggedModelArtifactFile(
      ctx.services,
      pathModelId(ctx),
      optionalString(ctx.input, "artifact_file_path"),
    );
    await sendArtifact(ctx.req, ctx.res, file);
    return undefined;
  },

  async searchLoggedModels({ revision, input, services }) {
    if (input.experiment_ids === undefined || input.experiment_ids === null) throw missingValue("experiment_ids");
    const maxResults = optionalInt(input, "max_results");
    const page = await models.searchLoggedModels(services, {
      experimentIds: stringArray(input, "experiment_ids").map((id) => toExperimentId(id, "experiment_ids")),
      filter: optionalString(input, "filter"),
      datasets: datasetClauses(input),
      orderBy: orderItems(input),
      maxResults: maxResults === undefined ? DEFAULT_MAX_RESULTS : maxResults === 0 ? ZERO_MAX_RESULTS : maxResults,
      pageToken: optionalString(input, "page_token") || undefined,
    });
    return {
      ...(page.models.length === 0 ? {} : { models: page.models.map((m) => loggedModelOut(revision, m)) }),
      ...(page.nextPageToken ? { next_page_token: page.nextPageToken } : {}),
    };
  },
};
