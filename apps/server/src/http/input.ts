import type { KeyValue } from "../core/model.js";
import { requireField, toExperimentId, toInt64 } from "../core/values.js";

/**
 * Readers of validated request input where the wire form still needs turning into a core value
 * (the fields themselves are typed from the spec, operation-handler.ts): int64 as a JSON number or a
 * decimal string (protobuf's JSON mapping), run_id vs the deprecated run_uuid, lists that a query
 * string may carry as one value.
 */

/** An optional int64 field as a number; an empty query value counts as absent. */
export const optionalInt = (field: string, value: number | string | null | undefined): number | undefined =>
  value === undefined || value === null || value === "" ? undefined : toInt64(field, value);

/** A required experiment id: a decimal string (revision C) or a number (A and B). */
export const experimentId = (value: number | string | null | undefined, field = "experiment_id"): number =>
  toExperimentId(requireField(field, value), field);

/** run_id, or the deprecated run_uuid (revision C); run_uuid in A and B. */
export const runId = (input: { run_id?: string; run_uuid?: string }): string =>
  requireField("run_id", input.run_id || input.run_uuid);

/** Tags or params; a missing value is "" (as MLflow stores it). */
export const keyValues = (list: ReadonlyArray<{ key: string; value?: string | null }> | undefined): KeyValue[] =>
  (list ?? []).map(({ key, value }) => ({ key, value: value ?? "" }));

/** A list field; a query key given once may arrive as one value. */
export const listOf = <T extends string | number>(value: T | readonly T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? [...value] : [value as T];
