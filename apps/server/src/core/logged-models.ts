import { randomBytes } from "node:crypto";
import { nowMs } from "./clock.js";
import { invalidParameter, notFound, TrackerError } from "./errors.js";
import type { KeyValue, MetricRecord } from "./model.js";
import { decodeQueryOffsetToken, encodeQueryOffsetToken } from "../search/page-token.js";
import { generateRunName } from "./run-names.js";
import type { Services } from "./services.js";
export { loggedModelSource, MODEL_VERSIONS_TAG, recordModelVersion } from "./logged-model-versions.js";
import { artifactFileBelow, listArtifactDirectory, type ArtifactFile, type FileInfoRecord } from "./artifacts.js";
import * as store from "../store/logged-models.js";
import { isUniqueViolation } from "../store/unique-violation.js";
import { parseLoggedModelFilter, queryFingerprint } from "../search/index.js";
import { storedTagFilter, swapRequestTagKey, swapRequestTags } from "./request-tags.js";
import { searchLoggedModelIds, type DatasetClause, type LoggedModelOrderItem } from "../search/logged-model-search.js";

/**
 * MLflow 3's logged models (revision-agnostic): create, finalize, get, delete (soft), tags,
 * params, artifacts and search, with MLflow's rules and messages. Metrics reach a model through
 * runs/log-metric and runs/log-batch with a model_id (store/runs.ts insertMetrics).
 */

/** MLflow's LoggedModelStatus, by its protobuf names. */
export const LOGGED_MODEL_STATUSES = [
  "LOGGED_MODEL_STATUS_UNSPECIFIED",
  "LOGGED_MODEL_PENDING",
  "LOGGED_MODEL_READY",
  "LOGGED_MODEL_UPLOAD_FAILED",
] as const;
export type LoggedModelStatus = (typeof LOGGED_MODEL_STATUSES)[number];

export interface LoggedModelRecord {
  modelId: string;
  experimentId: number;
  name: string;
  artifactUri: string;
  creationTimestampMs: number;
  lastUpdatedTimestampMs: number;
  status: LoggedModelStatus;
  lifecycleStage: string;
  modelType: string;
  sourceRunId: string;
  tags: KeyValue[];
  params: KeyValue[];
  /** Every point logged with the model's id, in logging order. */
  metrics: MetricRecord[];
}

export const newLoggedModelId = (): string => `m-${randomBytes(16).toString("hex")}`;

const modelNotFound = (id: string) => notFound(`Logged model with ID '${id}' not found.`);

/** Python's repr of a string, as MLflow's messages quote keys and ids. */
const pythonRepr = (text: string): string =>
  text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const FORBIDDEN_NAME_CHARACTERS = ["/", ":", ".", "%", '"', "'"];

function checkModelName(name: string): void {
  if (name === "" || FORBIDDEN_NAME_CHARACTERS.some((c) => name.includes(c))) {
    throw invalidParameter(
      `Invalid model name (${pythonRepr(name)}) provided. Model name must be a non-empty string and cannot contain the following characters: ('/', ':', '.', '%', '"', "'")`,
    );
  }
}

function toRecord(data: store.LoggedModelData): LoggedModelRecord {
  const r = data.row;
  return {
    modelId: r.model_id,
    experimentId: r.experiment_id,
    name: r.name,
    artifactUri: r.artifact_location,
    creationTimestampMs: r.creation_timestamp_ms,
    lastUpdatedTimestampMs: r.last_updated_timestamp_ms,
    status: LOGGED_MODEL_STATUSES[r.status] ?? "LOGGED_MODEL_STATUS_UNSPECIFIED",
    lifecycleStage: r.lifecycle_stage,
    modelType: r.model_type,
    sourceRunId: r.source_run_id,
    tags: data.tags,
    params: data.params,
    metrics: data.metrics,
  };
}

/** A repeated param or tag key in one request: MLflow's store fails on its primary key (400 BAD_REQUEST). */
function duplicateKeys(err: unknown, what: string): TrackerError | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const detail = (err as { detail?: string }).detail ?? "";
  return new TrackerError("BAD_REQUEST", `Duplicate ${what} key${detail ? `: ${detail}` : ""}`);
}

export interface CreateLoggedModelInput {
  experimentId: number;
  name?: string;
  modelType?: string;
  sourceRunId?: string;
  params: KeyValue[];
  tags: KeyValue[];
}

/**
 * Creates a PENDING model in an active experiment; its artifact URI is the experiment's artifact
 * location followed by `/models/<id>/artifacts`. Without a name, one in MLflow's run-name style.
 */
export async function createLoggedModel(services: Services, input: CreateLoggedModelInput): Promise<LoggedModelRecord> {
  if (input.name !== undefined && input.name !== "") checkModelName(input.name);
  const modelId = newLoggedModelId();
  const now = nowMs();
  let outcome: Awaited<ReturnType<typeof store.insertLoggedModel>>;
  try {
    outcome = await store.insertLoggedModel(
      services.knex,
      {
        model_id: modelId,
        experiment_id: input.experimentId,
        name: input.name || generateRunName(),
        creation_timestamp_ms: now,
        last_updated_timestamp_ms: now,
        status: LOGGED_MODEL_STATUSES.indexOf("LOGGED_MODEL_PENDING"),
        model_type: input.modelType ?? "",
        source_run_id: input.sourceRunId ?? "",
      },
      `/models/${modelId}/artifacts`,
      input.params,
      swapRequestTags(services, input.tags),
    );
  } catch (err) {
    throw duplicateKeys(err, "param or tag") ?? err;
  }
  if (outcome.experimentStage === undefined) throw notFound(`No Experiment with id=${input.experimentId} exists`);
  if (!outcome.created)
    throw invalidParameter(
      `The experiment ${input.experimentId} must be in the 'active' state. Current state is ${outcome.experimentStage}.`,
    );
  return getLoggedModel(services, modelId, true);
}

/** A model by id; a deleted one only with allowDeleted. */
export async function getLoggedModel(services: Services, id: string, allowDeleted = false): Promise<LoggedModelRecord> {
  const [data] = await store.loadLoggedModels(services.knex, [id]);
  if (!data || (!allowDeleted && data.row.lifecycle_stage !== "active")) throw modelNotFound(id);
  return toRecord(data);
}

/** A status from a request: its protobuf name or number. */
export function parseLoggedModelStatus(raw: unknown): LoggedModelStatus {
  if (typeof raw === "number" && Number.isInteger(raw) && LOGGED_MODEL_STATUSES[raw] !== undefined)
    return LOGGED_MODEL_STATUSES[raw];
  if (typeof raw === "string" && (LOGGED_MODEL_STATUSES as readonly string[]).includes(raw))
    return raw as LoggedModelStatus;
  throw invalidParameter(
    `Invalid value ${JSON.stringify(raw)} for parameter 'status' supplied. Expected one of ${LOGGED_MODEL_STATUSES.join(", ")}.`,
  );
}

/** Sets the status (any status, as MLflow does; deleted models too) and the update time. */
export async function finalizeLoggedModel(
  services: Services,
  id: string,
  status: LoggedModelStatus,
): Promise<LoggedModelRecord> {
  const updated = await store.updateLoggedModelRow(services.knex, id, {
    status: LOGGED_MODEL_STATUSES.indexOf(status),
    last_updated_timestamp_ms: nowMs(),
  });
  if (!updated) throw modelNotFound(id);
  return getLoggedModel(services, id, true);
}

/** Soft delete, as MLflow: tags, params, metrics and registered versions stay. Deleting again is fine. */
export async function deleteLoggedModel(services: Services, id: string): Promise<void> {
  const updated = await store.updateLoggedModelRow(services.knex, id, {
    lifecycle_stage: "deleted",
    last_updated_timestamp_ms: nowMs(),
  });
  if (!updated) throw modelNotFound(id);
}

/** Upserts tags (the last of a repeated key wins); deleted models too; the update time stays. */
export async function setLoggedModelTags(services: Services, id: string, tags: KeyValue[]): Promise<void> {
  if (!(await store.upsertLoggedModelTags(services.knex, id, swapRequestTags(services, tags)))) throw modelNotFound(id);
}

export async function deleteLoggedModelTag(services: Services, id: string, key: string): Promise<void> {
  const { model, removed } = await store.deleteLoggedModelTag(services.knex, id, swapRequestTagKey(services, key));
  if (!model) throw modelNotFound(id);
  if (!removed) throw notFound(`No tag with key ${pythonRepr(key)} found for model with ID ${pythonRepr(id)}.`);
}

/** Adds params; a key the model has already, even with the same value, is 400 BAD_REQUEST (as MLflow). */
export async function logLoggedModelParams(services: Services, id: string, params: KeyValue[]): Promise<void> {
  let found: boolean;
  try {
    found = await store.insertLoggedModelParams(services.knex, id, params);
  } catch (err) {
    throw duplicateKeys(err, "param") ?? err;
  }
  if (!found) throw modelNotFound(id);
}

/** One level of a (not deleted) model's artifacts, below `directory` when given. */
export async function listLoggedModelArtifacts(
  services: Services,
  id: string,
  directory: string | undefined,
): Promise<{ rootUri: string; files: FileInfoRecord[] }> {
  const model = await getLoggedModel(services, id);
  return {
    rootUri: model.artifactUri,
    files: await listArtifactDirectory(services, model.artifactUri, directory),
  };
}

/**
 * One file of a (not deleted) model's artifacts, for the browser download MLflow's UI links to;
 * without a path, MLflow's 400 BAD_REQUEST.
 */
export async function loggedModelArtifactFile(
  services: Services,
  id: string,
  relativePath: string | undefined,
): Promise<ArtifactFile> {
  if (!relativePath)
    throw new TrackerError("BAD_REQUEST", 'Request must include the "artifact_file_path" query parameter.');
  const model = await getLoggedModel(services, id);
  return artifactFileBelow(services, model.artifactUri, relativePath);
}

export interface LoggedModelSearch {
  experimentIds: number[];
  filter?: string;
  datasets: DatasetClause[];
  orderBy: LoggedModelOrderItem[];
  maxResults: number;
  pageToken?: string;
}

/** Searches active models; page tokens continue only the query (experiments, filter, order) they came from. */
export async function searchLoggedModels(
  services: Services,
  query: LoggedModelSearch,
): Promise<{ models: LoggedModelRecord[]; nextPageToken?: string }> {
  for (const d of query.datasets) {
    if (!d.name) throw invalidParameter("`dataset_name` in the `datasets` clause must be specified.");
  }
  if (!Number.isSafeInteger(query.maxResults) || query.maxResults < 1)
    throw invalidParameter(`Invalid value ${query.maxResults} for parameter 'max_results': it must be at least 1`);
  const filter = storedTagFilter(services, parseLoggedModelFilter(query.filter || undefined));
  const fingerprint = queryFingerprint("logged-models", {
    experimentIds: query.experimentIds,
    filter: query.filter || null,
    orderBy: query.orderBy,
  });
  const offset = query.pageToken ? decodeQueryOffsetToken(query.pageToken, fingerprint) : 0;
  const { ids, more } = await searchLoggedModelIds(services.knex, {
    experimentIds: query.experimentIds,
    filter,
    datasets: query.datasets,
    orderBy: query.orderBy,
    limit: query.maxResults,
    offset,
  });
  const models = (await store.loadLoggedModels(services.knex, ids)).map(toRecord);
  return more ? { models, nextPageToken: encodeQueryOffsetToken(fingerprint, offset + ids.length) } : { models };
}
