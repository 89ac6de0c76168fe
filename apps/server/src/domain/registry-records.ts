import type { KeyValue } from "./records.js";

/** Records of the model registry (revision C): what the store reads and writes and the core hands to the HTTP adapter. */

/** Stages of a model version, in their canonical spelling and in the order responses list them. */
export const STAGES = ["None", "Staging", "Production", "Archived"] as const;
export type Stage = (typeof STAGES)[number];

/** Stages that archive_existing_versions may target. */
export const ACTIVE_STAGES: ReadonlySet<Stage> = new Set<Stage>(["Staging", "Production"]);

export type ModelVersionStatus = "PENDING_REGISTRATION" | "FAILED_REGISTRATION" | "READY";

export interface ModelVersionRecord {
  name: string;
  version: number;
  creationTimestamp: number;
  lastUpdatedTimestamp: number;
  userId: string;
  currentStage: Stage;
  description: string;
  source: string;
  runId: string;
  runLink: string;
  status: ModelVersionStatus;
  statusMessage: string;
  /** The logged model (MLflow 3) the version was registered from, when it was. */
  modelId?: string;
  /** Where the version's files are, when not at its source (a logged model's artifact location). */
  storageLocation?: string;
  tags: KeyValue[];
  /** Aliases of the model that name this version (MLflow 2.3+), ordered by name. */
  aliases: string[];
}

/** An alias of a registered model and the version it names. */
export interface ModelAlias {
  alias: string;
  version: number;
}

export interface RegisteredModelRecord {
  name: string;
  creationTimestamp: number;
  lastUpdatedTimestamp: number;
  description: string;
  userId: string;
  /** Per stage, the highest-numbered READY version in it, in the order of STAGES. */
  latestVersions: ModelVersionRecord[];
  tags: KeyValue[];
  /** Every alias of the model, ordered by name. */
  aliases: ModelAlias[];
}
