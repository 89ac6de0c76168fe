import { invalidParameter, missingValue } from "../core/errors.js";
import type { KeyValue } from "../core/model.js";
import { requireField, toExperimentId, toInt64 } from "../core/values.js";

/**
 * Readers of validated request input. The validator has checked shapes against the spec; these
 * turn them into core values (int64 as number or string, run_id vs the deprecated run_uuid).
 */
export type Input = Record<string, unknown>;

export const optionalString = (input: Input, field: string): string | undefined => {
  const value = input[field];
  return value === undefined || value === null ? undefined : String(value);
};

export const requiredString = (input: Input, field: string): string =>
  requireField(field, optionalString(input, field));

export const optionalInt = (input: Input, field: string): number | undefined =>
  input[field] === undefined || input[field] === null || input[field] === "" ? undefined : toInt64(field, input[field]);

export const experimentId = (input: Input, field = "experiment_id"): number =>
  toExperimentId(requireField(field, input[field]), field);

/** run_id, or the deprecated run_uuid (revision C); run_uuid in A and B. */
export const runId = (input: Input): string => {
  const value = optionalString(input, "run_id") || optionalString(input, "run_uuid");
  return requireField("run_id", value);
};

export const keyValues = (input: Input, field: string): KeyValue[] => {
  const raw = input[field];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidParameter(`'${field}' must be an array`);
  return raw.map((item, i) => {
    const kv = item as { key?: unknown; value?: unknown };
    if (typeof kv?.key !== "string") throw missingValue(`${field}[${i}].key`);
    return { key: kv.key, value: kv.value === undefined || kv.value === null ? "" : String(kv.value) };
  });
};

export const stringArray = (input: Input, field: string): string[] => {
  const raw = input[field];
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
};
