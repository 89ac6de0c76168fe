// @tracker-ml/client: the ergonomic client for revision C (TrackerClient), the raw typed clients of
// every revision (createClient), the error class and the batching helper. Works in Node 20+ and in
// browsers: nothing here imports a Node module.
export { TrackerClient } from "./client.js";
export {
  TrackingClient,
  type CreateExperimentOptions,
  type CreateRunOptions,
  type LogMetricOptions,
  type SearchExperimentsOptions,
  type SearchRunsOptions,
  type UpdateRunOptions,
} from "./tracking.js";
export {
  RegistryClient,
  type CreateModelVersionOptions,
  type CreateRegisteredModelOptions,
  type SearchModelVersionsOptions,
  type SearchRegisteredModelsOptions,
  type TransitionStageOptions,
} from "./registry.js";
export { ServerInfoClient, type ServerInfo } from "./server-info.js";
export { HealthClient, type LiveStatus, type ReadyStatus } from "./health.js";
export { ModelAliasClient, type ModelVersionWithAliases, type RegisteredModelAlias } from "./model-aliases.js";
export { RunInputsClient, type Dataset, type DatasetInput, type DatasetSummary } from "./run-inputs.js";
export { RunModelLinksClient, type ModelOutput, type RunInputs, type RunOutputs } from "./run-model-links.js";
export {
  LoggedModelsClient,
  type CreateLoggedModelOptions,
  type LoggedModel,
  type LoggedModelArtifacts,
  type LoggedModelKeyValue,
  type LoggedModelStatus,
  type SearchLoggedModelsRequest,
  type SearchLoggedModelsResponse,
} from "./logged-models.js";
export { RunColumnsClient, type RunKeys, type RunWithInputs, type SearchRunsColumnsOptions } from "./run-columns.js";
export { MetricSamplingClient, type MetricHistoryBulkIntervalOptions, type SampledMetric } from "./metric-sampling.js";
export {
  ArtifactsClient,
  eachLimited,
  type ArtifactBody,
  type ArtifactFileSystem,
  type OpenedSource,
  type ProgressCallback,
  type TransferOptions,
} from "./artifacts.js";
export { ClientCore } from "./client-core.js";
export { RunBatcher, type BatchSink, type RunBatcherOptions } from "./batcher.js";
export { LOG_BATCH_LIMITS } from "./batch-limits.js";
export { RUN_SEARCH_ATTRIBUTES, type RunSearchAttribute } from "./search-attributes.js";
export { Paginated, type Page, type PageFetcher } from "./pagination.js";
export {
  TrackerError,
  isTrackerError,
  type ClientErrorCode,
  type ErrorCode,
  type ServerErrorCode,
  type TrackerErrorInit,
} from "./errors.js";
export {
  createClient,
  type ClientOptions,
  type RawClient,
  type Revision,
  type RevisionPaths,
  type TrackerClientOptions,
} from "./raw.js";
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RetryOptions,
  type TransportOptions,
} from "./transport.js";
export type {
  Experiment,
  ExperimentTag,
  FileInfo,
  LifecycleStage,
  LogBatchInput,
  Metric,
  MetricInput,
  ModelVersion,
  ModelVersionStage,
  ModelVersionStageInput,
  ModelVersionStatus,
  ModelVersionTag,
  Param,
  ParamsInput,
  ParamValue,
  RegisteredModel,
  RegisteredModelTag,
  Run,
  RunData,
  RunInfo,
  RunStatus,
  RunTag,
  TagsInput,
  VersionInput,
  ViewType,
} from "./entities.js";
