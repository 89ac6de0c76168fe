import type { KeyValue } from "../../domain/records.js";
import type {
  ModelAlias,
  ModelVersionRecord,
  ModelVersionStatus,
  RegisteredModelRecord,
  Stage,
} from "../../domain/registry-records.js";

/** Row shapes of the registry tables (db/migrations/0001_initial.ts) and their mapping to core records. */

export interface RegisteredModelRow {
  name: string;
  creation_timestamp: number;
  last_updated_timestamp: number;
  description: string;
  user_id: string;
  next_version: number;
}

export interface ModelVersionRow {
  name: string;
  version: number;
  creation_timestamp: number;
  last_updated_timestamp: number;
  last_stage_transition: number;
  user_id: string;
  current_stage: Stage;
  description: string;
  source: string;
  run_id: string;
  run_link: string;
  status: ModelVersionStatus;
  status_message: string;
  /** Set for versions registered from a logged model (MLflow 3, migration 0007). */
  model_id?: string | null;
  /** Where the version's files are when that is not its source (a logged model's artifacts). */
  storage_location?: string | null;
}

export interface ModelVersionTagRow {
  name: string;
  version: number;
  key: string;
  value: string;
}

export const toModelVersion = (row: ModelVersionRow, tags: KeyValue[], aliases: string[]): ModelVersionRecord => ({
  name: row.name,
  version: Number(row.version),
  creationTimestamp: Number(row.creation_timestamp),
  lastUpdatedTimestamp: Number(row.last_updated_timestamp),
  userId: row.user_id,
  currentStage: row.current_stage,
  description: row.description,
  source: row.source,
  runId: row.run_id,
  runLink: row.run_link,
  status: row.status,
  statusMessage: row.status_message,
  ...(row.model_id ? { modelId: row.model_id } : {}),
  ...(row.storage_location ? { storageLocation: row.storage_location } : {}),
  tags,
  aliases,
});

export const toRegisteredModel = (
  row: RegisteredModelRow,
  tags: KeyValue[],
  latestVersions: ModelVersionRecord[],
  aliases: ModelAlias[],
): RegisteredModelRecord => ({
  name: row.name,
  creationTimestamp: Number(row.creation_timestamp),
  lastUpdatedTimestamp: Number(row.last_updated_timestamp),
  description: row.description,
  userId: row.user_id,
  latestVersions,
  tags,
  aliases,
});

/** The key of a model version in maps. */
export const versionKey = (name: string, version: number) => `${version}\u0000${name}`;
