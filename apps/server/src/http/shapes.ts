import type { ExperimentRecord, KeyValue, MetricRecord, RunInfoRecord, RunRecord } from "../core/model.js";
import { doubleOut } from "../core/values.js";
import { systemTags } from "../core/system-tags.js";
import type { Revision } from "./revisions.js";

/**
 * Response shapes per revision. Revision C renders ids as strings and hides the A/B source
 * fields; the preview prefix (A and B) serves the union of A's and B's fields, so that clients of
 * both revisions read what they expect.
 */

const isPreview = (revision: Revision) => revision !== "c";

export function experimentOut(revision: Revision, e: ExperimentRecord) {
  const common = {
    name: e.name,
    artifact_location: e.artifactLocation,
    lifecycle_stage: e.lifecycleStage,
    last_update_time: e.lastUpdateTime,
    creation_time: e.creationTime,
  };
  if (isPreview(revision)) return { experiment_id: e.experimentId, ...common };
  return { experiment_id: String(e.experimentId), ...common, tags: e.tags };
}

export function metricOut(revision: Revision, m: MetricRecord) {
  const base = { key: m.key, value: doubleOut(m.value), timestamp: m.timestamp };
  return isPreview(revision) ? base : { ...base, step: m.step };
}

/**
 * A metric point as MLflow 3 answers it: with its dataset, model and run when it has them (each
 * field only when set, as MLflow's Metric.to_proto does).
 */
export function linkedMetricOut(revision: Revision, m: MetricRecord) {
  return {
    ...metricOut(revision, m),
    ...(m.datasetName === undefined ? {} : { dataset_name: m.datasetName }),
    ...(m.datasetDigest === undefined ? {} : { dataset_digest: m.datasetDigest }),
    ...(m.modelId === undefined ? {} : { model_id: m.modelId }),
    ...(m.runId === undefined ? {} : { run_id: m.runId }),
  };
}

const SOURCE_TYPES = new Set(["NOTEBOOK", "JOB", "PROJECT", "LOCAL", "UNKNOWN"]);

/** RunInfo of a revision; the preview shape needs the run's tags (A carries them in RunInfo). */
export function runInfoOut(revision: Revision, info: RunInfoRecord, tags: KeyValue[], namespace: string) {
  const endTime = info.endTime === null ? {} : { end_time: info.endTime };
  if (!isPreview(revision)) {
    return {
      run_id: info.runId,
      run_uuid: info.runId,
      run_name: info.runName,
      experiment_id: String(info.experimentId),
      user_id: info.userId,
      status: info.status,
      start_time: info.startTime,
      ...endTime,
      artifact_uri: info.artifactUri,
      lifecycle_stage: info.lifecycleStage,
    };
  }
  const names = systemTags(namespace);
  const tag = (key: string) => tags.find((t) => t.key === key)?.value;
  const sourceType = tag(names.sourceType);
  const optional = (field: string, value: string | undefined) => (value === undefined ? {} : { [field]: value });
  return {
    run_uuid: info.runId,
    experiment_id: info.experimentId,
    name: info.runName,
    ...(sourceType && SOURCE_TYPES.has(sourceType) ? { source_type: sourceType } : {}),
    ...optional("source_name", tag(names.sourceName)),
    user_id: info.userId,
    status: info.status,
    start_time: info.startTime,
    ...endTime,
    ...optional("source_version", tag(names.sourceVersion)),
    ...optional("entry_point_name", tag(names.entryPoint)),
    tags,
    artifact_uri: info.artifactUri,
    lifecycle_stage: info.lifecycleStage,
  };
}

/** A whole run: C reports the latest metric by timestamp, A/B the last logged one. */
export function runOut(revision: Revision, run: RunRecord, namespace: string) {
  const metrics = isPreview(revision) ? run.lastLoggedMetrics : run.latestMetrics;
  return {
    info: runInfoOut(revision, run.info, run.tags, namespace),
    data: {
      metrics: metrics.map((m) => metricOut(revision, m)),
      params: run.params,
      tags: run.tags,
    },
  };
}
