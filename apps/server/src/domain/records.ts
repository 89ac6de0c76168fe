/**
 * Revision-agnostic records: what the store reads and writes, the core checks and hands to the
 * HTTP adapters. The bottom layer: this folder imports nothing from core/, search/, store/, db/ or http/.
 */

export type LifecycleStage = "active" | "deleted";
export type RunStatus = "RUNNING" | "SCHEDULED" | "FINISHED" | "FAILED" | "KILLED";
/** Which entities a search sees by lifecycle stage. */
export type ViewType = "ACTIVE_ONLY" | "DELETED_ONLY" | "ALL";

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

/** A dataset a run used (MLflow 2.4+ dataset tracking). */
export interface DatasetRecord {
  name: string;
  digest: string;
  sourceType: string;
  source: string;
  schema?: string;
  profile?: string;
}

/** One input of a run: a dataset and the input's tags. */
export interface DatasetInputRecord {
  tags: KeyValue[];
  dataset: DatasetRecord;
}
