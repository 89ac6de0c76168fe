import type {
  ExperimentRecord,
  KeyValue,
  LifecycleStage,
  MetricRecord,
  RunInfoRecord,
  RunStatus,
} from "../domain/records.js";

/** Row shapes of the tables (db/migrations) and their mapping to core records. */
export interface ExperimentRow {
  experiment_id: number;
  name: string;
  artifact_location: string;
  lifecycle_stage: LifecycleStage;
  creation_time: number;
  last_update_time: number;
}

export interface RunRow {
  run_uuid: string;
  experiment_id: number;
  run_name: string;
  user_id: string;
  status: RunStatus;
  start_time: number;
  end_time: number | null;
  artifact_uri: string;
  lifecycle_stage: LifecycleStage;
}

export const toExperiment = (row: ExperimentRow, tags: KeyValue[]): ExperimentRecord => ({
  experimentId: Number(row.experiment_id),
  name: row.name,
  artifactLocation: row.artifact_location,
  lifecycleStage: row.lifecycle_stage,
  creationTime: Number(row.creation_time),
  lastUpdateTime: Number(row.last_update_time),
  tags,
});

export const toRunInfo = (row: RunRow): RunInfoRecord => ({
  runId: row.run_uuid,
  experimentId: Number(row.experiment_id),
  runName: row.run_name,
  userId: row.user_id,
  status: row.status,
  startTime: Number(row.start_time),
  endTime: row.end_time === null ? null : Number(row.end_time),
  artifactUri: row.artifact_uri,
  lifecycleStage: row.lifecycle_stage,
});

export const toMetric = (key: string, value: number, timestamp: number, step: number): MetricRecord => ({
  key,
  value: Number(value),
  timestamp: Number(timestamp),
  step: Number(step),
});

/** Groups key-value rows by an owner column, keeping their order. */
export function groupBy<R extends { key: string; value: string }>(
  rows: R[],
  owner: (row: R) => string | number,
): Map<string, KeyValue[]> {
  const out = new Map<string, KeyValue[]>();
  for (const row of rows) {
    const id = String(owner(row));
    const list = out.get(id) ?? [];
    list.push({ key: row.key, value: row.value });
    out.set(id, list);
  }
  return out;
}
