// The objects the ergonomic layer takes and returns. Returned objects keep the wire shape of
// revision C (snake_case fields, as in MLflow's REST API), except that metric values are always
// JavaScript numbers (the wire sends NaN and the infinities as strings).
import type { components } from "./generated/rev-c.js";

type Schemas = components["schemas"];

export type Experiment = Schemas["Experiment"];
export type ExperimentTag = Schemas["ExperimentTag"];
export type RunInfo = Schemas["RunInfo"];
export type RunStatus = Schemas["RunStatus"];
export type LifecycleStage = Schemas["LifecycleStage"];
export type ViewType = Schemas["ViewType"];
export type Param = Schemas["Param"];
export type RunTag = Schemas["RunTag"];
export type FileInfo = Schemas["FileInfo"];
export type RegisteredModel = Schemas["RegisteredModel"];
export type RegisteredModelTag = Schemas["RegisteredModelTag"];
export type ModelVersion = Schemas["ModelVersion"];
export type ModelVersionTag = Schemas["ModelVersionTag"];
export type ModelVersionStage = Schemas["ModelVersionStage"];
export type ModelVersionStatus = Schemas["ModelVersionStatus"];

/** One logged value of a metric. */
export interface Metric {
  key: string;
  /** The value; NaN, Infinity and -Infinity included. */
  value: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
  step: number;
}

export interface RunData {
  /** The latest value of each metric key. */
  metrics: Metric[];
  params: Param[];
  tags: RunTag[];
}

export interface Run {
  info: RunInfo;
  data: RunData;
}

/** Tags given as an object (`{ team: "ml" }`) or as a list of key-value pairs. */
export type TagsInput =
  | Readonly<Record<string, string>>
  | ReadonlyArray<{ readonly key: string; readonly value: string }>;

/** A param value; numbers and booleans are sent as their string form, as MLflow does. */
export type ParamValue = string | number | boolean;

/** Params given as an object (`{ lr: 0.01 }`) or as a list of key-value pairs. */
export type ParamsInput =
  | Readonly<Record<string, ParamValue>>
  | ReadonlyArray<{ readonly key: string; readonly value: ParamValue }>;

/** One metric value to log. */
export interface MetricInput {
  key: string;
  value: number;
  /** Milliseconds since the epoch; the time of the call when omitted. */
  timestamp?: number;
  /** Defaults to 0. */
  step?: number;
}

/** What one logBatch call writes to a run. */
export interface LogBatchInput {
  metrics?: readonly MetricInput[];
  params?: ParamsInput;
  tags?: TagsInput;
}

/** A stage name as accepted in requests (matched without regard to case). */
export type ModelVersionStageInput = ModelVersionStage | Lowercase<ModelVersionStage> | Uppercase<ModelVersionStage>;

/** A model version number, as a number or as its decimal string. */
export type VersionInput = string | number;
