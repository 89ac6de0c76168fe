import { invalidParameter } from "./errors.js";

/** Input limits of the interface specification (part 8) and design.md, enforced for every revision. */
export const LIMITS = {
  experimentNameChars: 500,
  keyChars: 250,
  /** log-parameter, delete-tag and revision B's set-tag state their key bound in bytes. */
  keyBytes: 255,
  paramValueBytes: 500,
  tagValueBytes: 5000,
  batchKeyChars: 250,
  batchValueChars: 250,
  batchMetrics: 1000,
  batchParams: 100,
  batchTags: 100,
  batchTotal: 1000,
  experimentTags: 100,
} as const;

const KEY_PATTERN = /^[/\w.\- ]*$/;

const byteLength = (s: string) => Buffer.byteLength(s, "utf8");

/**
 * A metric, param or tag key: non-empty, at most `maxChars` characters (and `maxBytes` bytes where
 * the operation states bytes), only `[/\w.\- ]`, not `.`, not starting with `..` or `/`.
 */
export function checkKey(kind: string, key: string, opts: { maxChars?: number; maxBytes?: number } = {}): void {
  const maxChars = opts.maxChars ?? LIMITS.keyChars;
  if (key.length === 0) throw invalidParameter(`Invalid ${kind} key: it must not be empty`);
  if (key.length > maxChars)
    throw invalidParameter(`${kind} key '${key.slice(0, 40)}...' is longer than ${maxChars} characters`);
  if (opts.maxBytes !== undefined && byteLength(key) > opts.maxBytes) {
    throw invalidParameter(`${kind} key '${key.slice(0, 40)}...' is longer than ${opts.maxBytes} bytes`);
  }
  if (!KEY_PATTERN.test(key) || key === "." || key.startsWith("..") || key.startsWith("/")) {
    throw invalidParameter(
      `Invalid ${kind} key '${key}': keys may contain only letters, digits, underscores, dashes, periods, spaces and slashes, and must not be '.' or start with '..' or '/'`,
    );
  }
}

/** Bounds of one value, in characters and/or bytes (UTF-8). */
export interface ValueBound {
  maxChars?: number;
  maxBytes?: number;
}

/**
 * A value bounded in characters and/or bytes. `label` names it as MLflow's messages do
 * (`Param value`, `value`, `tags[3].value`): `'value' exceeds the maximum length of 8000 characters`.
 */
export function checkValue(label: string, value: string, opts: ValueBound): void {
  if (opts.maxChars !== undefined && value.length > opts.maxChars) {
    throw invalidParameter(`'${label}' exceeds the maximum length of ${opts.maxChars} characters`);
  }
  if (opts.maxBytes !== undefined && byteLength(value) > opts.maxBytes) {
    throw invalidParameter(`'${label}' exceeds the maximum length of ${opts.maxBytes} bytes`);
  }
  if (value.includes("\u0000")) throw invalidParameter(`'${label}' contains a NUL character`);
}

/** Value limits of run params and tags, which differ between revision C and MLflow 2.x. */
export interface RunValueLimits {
  /** runs/log-parameter */
  paramValue: ValueBound;
  /** runs/set-tag and the tags of runs/create */
  tagValue: ValueBound;
  /** params inside runs/log-batch */
  batchParamValue: ValueBound;
  /** tags inside runs/log-batch */
  batchTagValue: ValueBound;
}

/** Revision C's documented limits (spec part 8): the `tracker` paths. */
export const TRACKER_RUN_VALUE_LIMITS: RunValueLimits = {
  paramValue: { maxBytes: LIMITS.paramValueBytes },
  tagValue: { maxBytes: LIMITS.tagValueBytes },
  batchParamValue: { maxChars: LIMITS.batchValueChars },
  batchTagValue: { maxChars: LIMITS.batchValueChars },
};

/** MLflow 2.x's limits (mlflow/utils/validation.py: params 6000, tags 8000 characters): the `mlflow` paths. */
export const MLFLOW_RUN_VALUE_LIMITS: RunValueLimits = {
  paramValue: { maxChars: 6000 },
  tagValue: { maxChars: 8000 },
  batchParamValue: { maxChars: 6000 },
  batchTagValue: { maxChars: 8000 },
};

export function checkExperimentName(name: string): void {
  if (name.length === 0 || name.trim().length === 0)
    throw invalidParameter("Experiment name must be a non-empty string");
  if (name.length > LIMITS.experimentNameChars) {
    throw invalidParameter(`Experiment name is longer than ${LIMITS.experimentNameChars} characters`);
  }
  if (name.includes("\u0000")) throw invalidParameter("Experiment name contains a NUL character");
}
