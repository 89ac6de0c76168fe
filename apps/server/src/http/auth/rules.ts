import type { Capability } from "../../core/auth/permissions.js";
import type { OperationId } from "../operation-handler.js";

/**
 * The one table of what each operation needs when users and permissions are on: MLflow's
 * BEFORE_REQUEST_HANDLERS (mlflow/server/auth/__init__.py) by operationId, for every operation of
 * every document (revisions A, B, C, ext.yaml, auth.yaml). authorize.ts applies it around the
 * handlers; rules.test.ts fails when an operation of a spec has no rule.
 */

/** Where an operation names the resource its permission is checked on. */
export type Target =
  /** An experiment by id (`experiment_id`; the Default experiment `0` when absent, as runs/create reads it). */
  | { experiment: "experiment_id" }
  /** An experiment by name (`experiment_name`). */
  | { experimentByName: "experiment_name" }
  /** A run (`run_id` or `run_uuid`): its experiment. */
  | { run: true }
  /** Several runs (`run_ids`): each one's experiment. */
  | { runs: "run_ids" }
  /** A registered model (`name`); its versions and aliases follow it. */
  | { model: "name" }
  /** A logged model (path parameter `model_id`): its experiment. */
  | { loggedModel: true }
  /** A run (`run_id`) or else a logged model (`model_id` of the body): its experiment. */
  | { runOrLoggedModel: true }
  /**
   * A path of the artifact service (`artifact_path`, or the query's `path` when listing): the
   * experiment named by its first segment, else the default permission (as MLflow's proxy rules).
   */
  | { artifactPath: true };

export type Rule =
  /** Any authenticated user (creating an experiment or model, server info, one's own tokens). */
  | { anyone: true; grantCreator?: "experiment" | "registered_model" }
  /** Admins only. */
  | { admin: true }
  /** The user named by `username` (oneself when absent), or an admin. */
  | { selfOrAdmin: true }
  /** A capability on one resource. */
  | { need: Capability; on: Target }
  /**
   * A search over experiments: unreadable ones are dropped from `experiment_ids`; when none is
   * left, the answer is `empty` (the operation's answer with nothing found).
   */
  | { narrowExperimentIds: { empty: object } }
  /** A listing whose answer holds experiments, or registered models or versions, filtered to readable ones. */
  | { filterAnswer: { list: string; key: string; kind: "experiment" | "registered_model" } };

const read = (on: Target): Rule => ({ need: "read", on });
const update = (on: Target): Rule => ({ need: "update", on });
const remove = (on: Target): Rule => ({ need: "delete", on });
const manage = (on: Target): Rule => ({ need: "manage", on });

const EXPERIMENT: Target = { experiment: "experiment_id" };
const RUN: Target = { run: true };
const MODEL: Target = { model: "name" };
const LOGGED_MODEL: Target = { loggedModel: true };
const ARTIFACTS: Target = { artifactPath: true };
const RUN_OR_LOGGED_MODEL: Target = { runOrLoggedModel: true };

export const OPERATION_RULES: Readonly<Record<OperationId, Rule>> = {
  // Experiments (revisions A-C, ext.yaml)
  createExperiment: { anyone: true, grantCreator: "experiment" },
  listExperiments: { filterAnswer: { list: "experiments", key: "experiment_id", kind: "experiment" } },
  searchExperiments: { filterAnswer: { list: "experiments", key: "experiment_id", kind: "experiment" } },
  getExperiment: read(EXPERIMENT),
  getExperimentByName: read({ experimentByName: "experiment_name" }),
  deleteExperiment: remove(EXPERIMENT),
  restoreExperiment: remove(EXPERIMENT),
  updateExperiment: update(EXPERIMENT),
  setExperimentTag: update(EXPERIMENT),
  deleteExperimentTag: update(EXPERIMENT),
  searchDatasets: { narrowExperimentIds: { empty: {} } },
  // Runs: they follow their experiment.
  createRun: update(EXPERIMENT),
  getRun: read(RUN),
  deleteRun: remove(RUN),
  restoreRun: remove(RUN),
  updateRun: update(RUN),
  searchRuns: { narrowExperimentIds: { empty: { runs: [] } } },
  searchRunsColumns: { narrowExperimentIds: { empty: { runs: [] } } },
  listRunKeys: { narrowExperimentIds: { empty: { metric_keys: [], param_keys: [], tag_keys: [], truncated: false } } },
  logMetric: update(RUN),
  logParam: update(RUN),
  setTag: update(RUN),
  deleteTag: update(RUN),
  logBatch: update(RUN),
  logModel: update(RUN),
  logInputs: update(RUN),
  logOutputs: update(RUN),
  getMetric: read(RUN),
  getMetricHistory: read(RUN),
  getMetricHistoryBulkInterval: read({ runs: "run_ids" }),
  getParam: read(RUN),
  listArtifacts: read(RUN),
  getArtifact: read(RUN),
  getRunArtifactFile: read(RUN),
  // Registry: versions and aliases follow their registered model.
  createRegisteredModel: { anyone: true, grantCreator: "registered_model" },
  getRegisteredModel: read(MODEL),
  renameRegisteredModel: update(MODEL),
  updateRegisteredModel: update(MODEL),
  deleteRegisteredModel: remove(MODEL),
  listRegisteredModels: { filterAnswer: { list: "registered_models", key: "name", kind: "registered_model" } },
  searchRegisteredModels: { filterAnswer: { list: "registered_models", key: "name", kind: "registered_model" } },
  getLatestVersions: read(MODEL),
  setRegisteredModelTag: update(MODEL),
  deleteRegisteredModelTag: update(MODEL),
  createModelVersion: update(MODEL),
  getModelVersion: read(MODEL),
  updateModelVersion: update(MODEL),
  deleteModelVersion: remove(MODEL),
  searchModelVersions: { filterAnswer: { list: "model_versions", key: "name", kind: "registered_model" } },
  getModelVersionDownloadUri: read(MODEL),
  transitionModelVersionStage: update(MODEL),
  setModelVersionTag: update(MODEL),
  deleteModelVersionTag: remove(MODEL),
  getModelVersionByAlias: read(MODEL),
  setRegisteredModelAlias: update(MODEL),
  deleteRegisteredModelAlias: remove(MODEL),
  listRegisteredModelAliases: read(MODEL),
  getModelVersionArtifactFile: read(MODEL),
  // Logged models (MLflow 3): they follow their experiment.
  createLoggedModel: update(EXPERIMENT),
  searchLoggedModels: { narrowExperimentIds: { empty: {} } },
  getLoggedModel: read(LOGGED_MODEL),
  finalizeLoggedModel: update(LOGGED_MODEL),
  deleteLoggedModel: remove(LOGGED_MODEL),
  setLoggedModelTags: update(LOGGED_MODEL),
  deleteLoggedModelTag: update(LOGGED_MODEL),
  logLoggedModelParams: update(LOGGED_MODEL),
  listLoggedModelArtifacts: read(LOGGED_MODEL),
  getLoggedModelArtifactFile: read(LOGGED_MODEL),
  // The artifact service, as MLflow's proxy rules: read to list and download, update to upload and delete.
  downloadArtifact: read(ARTIFACTS),
  listArtifactDirectory: read(ARTIFACTS),
  uploadArtifact: update(ARTIFACTS),
  deleteArtifacts: update(ARTIFACTS),
  createMultipartUpload: update(ARTIFACTS),
  completeMultipartUpload: update(ARTIFACTS),
  abortMultipartUpload: update(ARTIFACTS),
  presignArtifactDownload: read(ARTIFACTS),
  // MLflow 3's presigned URLs name a run's or a logged model's artifacts (MLflow: read and update on its experiment).
  createPresignedUploadUrl: update(RUN_OR_LOGGED_MODEL),
  createPresignedDownloadUrl: read(RUN_OR_LOGGED_MODEL),
  // The server itself (the health probes never get here: they stay open).
  getServerInfo: { anyone: true },
  getMlflowServerInfo: { anyone: true },
  getMlflowVersion: { anyone: true },
  getHealth: { anyone: true },
  getLiveness: { anyone: true },
  getReadiness: { anyone: true },
  // Users and permissions (auth.yaml), as MLflow's validators.
  createUser: { admin: true },
  getUser: { selfOrAdmin: true },
  getCurrentUser: { anyone: true },
  listUsers: { admin: true },
  updateUserPassword: { selfOrAdmin: true },
  updateUserAdmin: { admin: true },
  deleteUser: { admin: true },
  createExperimentPermission: manage(EXPERIMENT),
  getExperimentPermission: manage(EXPERIMENT),
  updateExperimentPermission: manage(EXPERIMENT),
  deleteExperimentPermission: manage(EXPERIMENT),
  createRegisteredModelPermission: manage(MODEL),
  getRegisteredModelPermission: manage(MODEL),
  updateRegisteredModelPermission: manage(MODEL),
  deleteRegisteredModelPermission: manage(MODEL),
  createAccessToken: { anyone: true },
  listAccessTokens: { selfOrAdmin: true },
  revokeAccessToken: { anyone: true },
  listAuditEntries: { admin: true },
  // The web UI's sign-in session (session.ts) and its permissions panel.
  getWebSession: { anyone: true },
  signIn: { anyone: true },
  signOut: { anyone: true },
  listExperimentPermissions: manage(EXPERIMENT),
  listRegisteredModelPermissions: manage(MODEL),
};
