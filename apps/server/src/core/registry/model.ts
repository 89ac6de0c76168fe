import { invalidParameter, notFound } from "../errors.js";
import type { KeyValue } from "../model.js";

/** Records of the model registry (revision C), as the core hands them to the HTTP adapter. */

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

const STAGE_BY_LOWER = new Map<string, Stage>(STAGES.map((s) => [s.toLowerCase(), s]));

/** A stage name from a request, matched case-insensitively, in its canonical spelling. */
export function canonicalStage(raw: string): Stage {
  const stage = STAGE_BY_LOWER.get(raw.toLowerCase());
  if (!stage) throw invalidParameter(`Invalid Model Version stage: ${raw}. Value must be one of ${STAGES.join(", ")}.`);
  return stage;
}

export const isStage = (value: string): value is Stage => (STAGES as readonly string[]).includes(value);

/** Largest version number the store can hold (the column is a 32-bit integer). */
const MAX_VERSION = 2_147_483_647;

export const modelNotFound = (name: string) => notFound(`Registered Model with name=${name} not found`);
export const versionNotFound = (name: string, version: string | number) =>
  notFound(`Model Version (name=${name}, version=${version}) not found`);

/**
 * A version number from a request (decimal digits, as MLflow's int() reads them). A number beyond
 * what the store can hold, or below 1, names no version, so it is RESOURCE_DOES_NOT_EXIST rather
 * than a database error. Anything else is MLflow's "Model version must be an integer".
 */
export function parseVersion(name: string, raw: string): number {
  const text = raw.trim();
  if (!/^[-+]?[0-9]+$/.test(text)) throw invalidParameter("Model version must be an integer");
  const version = Number(text);
  if (!Number.isSafeInteger(version) || version < 1 || version > MAX_VERSION) throw versionNotFound(name, raw);
  return version;
}
