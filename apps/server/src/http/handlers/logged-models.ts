import type { Request } from "express";
import * as models from "../../core/logged-models.js";
import type { LoggedModelRecord } from "../../core/logged-models.js";
import { missingValue } from "../../core/errors.js";
import { handlerTable, type OperationContext } from "../operation-handler.js";
import { experimentId, keyValues, listOf, optionalInt } from "../input.js";
import { linkedMetricOut } from "../shapes.js";
import { tagNamespaceOf } from "../../core/services.js";
import { swapTagsNamespace } from "../../domain/system-tags.js";
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
function requiredNonEmpty(value: string | null | undefined, field: string): string {
  if (value === undefined || value === null || value === "") throw missingValue(field);
  return value;
}

/**
 * A logged model as MLflow's server answers it (ext operations follow revision C's conventions),
 * its tags in the request's system-tag namespace.
 */
export function loggedModelOut(m: LoggedModelRecord, namespace: string) {
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
      ...(m.tags.length === 0 ? {} : { tags: swapTagsNamespace(namespace, m.tags) }),
    },
    data: {
      ...(m.params.length === 0 ? {} : { params: m.params }),
      ...(m.metrics.length === 0
        ? {}
        : { metrics: m.metrics.map((x) => ({ ...linkedMetricOut("c", x), step: x.step })) }),
    },
  };
}

type SearchInput = OperationContext<"searchLoggedModels">["input"];

function datasetClauses(input: SearchInput): DatasetClause[] {
  return (input.datasets ?? []).map((d) => ({
    name: d.dataset_name ?? "",
    ...(d.dataset_digest ? { digest: d.dataset_digest } : {}),
  }));
}

function orderItems(input: SearchInput): LoggedModelOrderItem[] {
  return (input.order_by ?? []).map((o) => ({
    fieldName: requiredNonEmpty(o.field_name, "field_name"),
    ascending: o.ascending ?? true,
    ...(o.dataset_name ? { datasetName: o.dataset_name } : {}),
    ...(o.dataset_digest ? { datasetDigest: o.dataset_digest } : {}),
  }));
}

export const loggedModelHandlers = handlerTable({
  async createLoggedModel({ input, services }) {
    const model = await models.createLoggedModel(services, {
      experimentId: experimentId(input.experiment_id),
      name: input.name ?? undefined,
      modelType: input.model_type ?? undefined,
      sourceRunId: input.source_run_id ?? undefined,
      params: keyValues(input.params),
      tags: keyValues(input.tags),
    });
    return { model: loggedModelOut(model, tagNamespaceOf(services)) };
  },

  async getLoggedModel(ctx) {
    const allowDeleted = String(ctx.input.allow_deleted ?? "").toLowerCase() === "true";
    return {
      model: loggedModelOut(
        await models.getLoggedModel(ctx.services, pathModelId(ctx), allowDeleted),
        tagNamespaceOf(ctx.services),
      ),
    };
  },

  async finalizeLoggedModel({ input, services }) {
    // As MLflow's handler: the body's model_id is the model finalized (the path's is not read).
    const modelId = requiredNonEmpty(input.model_id, "model_id");
    if (input.status === undefined || input.status === null) throw missingValue("status");
    const status = models.parseLoggedModelStatus(input.status);
    const model = await models.finalizeLoggedModel(services, modelId, status);
    return { model: loggedModelOut(model, tagNamespaceOf(services)) };
  },

  async deleteLoggedModel(ctx) {
    await models.deleteLoggedModel(ctx.services, pathModelId(ctx));
    return {};
  },

  async setLoggedModelTags(ctx) {
    await models.setLoggedModelTags(ctx.services, pathModelId(ctx), keyValues(ctx.input.tags));
    return {};
  },

  async deleteLoggedModelTag(ctx) {
    await models.deleteLoggedModelTag(ctx.services, pathModelId(ctx), pathParam(ctx.req, "tag_key"));
    return {};
  },

  async logLoggedModelParams(ctx) {
    requiredNonEmpty(ctx.input.model_id, "model_id");
    await models.logLoggedModelParams(ctx.services, pathModelId(ctx), keyValues(ctx.input.params));
    return {};
  },

  async listLoggedModelArtifacts(ctx) {
    const { rootUri, files } = await models.listLoggedModelArtifacts(
      ctx.services,
      pathModelId(ctx),
      ctx.input.artifact_directory_path ?? undefined,
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
      ctx.input.artifact_file_path ?? undefined,
    );
    await sendArtifact(ctx.req, ctx.res, file);
    return undefined;
  },

  async searchLoggedModels({ input, services }) {
    if (input.experiment_ids === undefined || input.experiment_ids === null) throw missingValue("experiment_ids");
    const maxResults = optionalInt("max_results", input.max_results);
    const page = await models.searchLoggedModels(services, {
      experimentIds: listOf(input.experiment_ids).map((id) => toExperimentId(id, "experiment_ids")),
      filter: input.filter ?? undefined,
      datasets: datasetClauses(input),
      orderBy: orderItems(input),
      maxResults: maxResults === undefined ? DEFAULT_MAX_RESULTS : maxResults === 0 ? ZERO_MAX_RESULTS : maxResults,
      pageToken: input.page_token || undefined,
    });
    return {
      ...(page.models.length === 0
        ? {}
        : { models: page.models.map((m) => loggedModelOut(m, tagNamespaceOf(services))) }),
      ...(page.nextPageToken ? { next_page_token: page.nextPageToken } : {}),
    };
  },
});
