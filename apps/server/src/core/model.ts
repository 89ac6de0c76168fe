/** Revision-agnostic records the core hands to the HTTP adapters. */

export type LifecycleStage = "active" | "deleted";
export type { ViewType } from "../search/search-options.js";
export type RunStatus = "RUNNING" | "SCHEDULED" | "FINISHED" | "FAILED" | "KILLED";

export interface KeyValue {
  key: string;
  value: string;
}

export interface ExperimentRecord {
  experimentId: number;
  name: string;
  artifactLocation: string;
  lifecycleStage: LifecycleStage;
  creationTime: number;
  lastUpdateTime: number;
  tags: KeyValue[];
}

export interface RunInfoRecord {
  runId: string;
  experimentId: number;
  runName: string;
  userId: string;
  status: RunStatus;
  startTime: number;
  endTime: number | null;
  artifactUri: string;
  lifecycleStage: LifecycleStage;
}

export interface MetricRecord {
  key: string;
  value: number;
  timestamp: number;
  step: number;
  /** The logged model the point was logged for (MLflow 3), when given. */
  modelId?: string;
  /** The dataset the point was computed on (MLflow 3): both or neither. */
  datasetName?: string;
  datasetDigest?: string;
  /** The run that logged the point: set in a logged model's metrics only. */
  runId?: string;
}

export interface RunRecord {
  info: RunInfoRecord;
  params: KeyValue[];
  tags: KeyValue[];
  /** Per key, revision C's latest value: latest timestamp, then the maximum value. */
  latestMetrics: MetricRecord[];
  /** Per key, the last logged value (insertion order), for revisions A and B. */
  lastLoggedMetrics: MetricRecord[];
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}
