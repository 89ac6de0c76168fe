import { invalidParameter, notFound } from "../errors.js";
import { STAGES, type Stage } from "../../domain/registry-records.js";

/** Checks and errors of the model registry (revision C); its records are in domain/registry-records.ts. */

export {
  ACTIVE_STAGES,
  STAGES,
  type ModelAlias,
  type ModelVersionRecord,
  type ModelVersionStatus,
  type RegisteredModelRecord,
  type Stage,
} from "../../domain/registry-records.js";

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
