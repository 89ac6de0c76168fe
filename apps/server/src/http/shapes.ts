import type { ExperimentRecord, KeyValue, MetricRecord, RunInfoRecord, RunRecord } from "../core/model.js";
import { doubleOut } from "../core/values.js";
import { STORED_TAGS, swapTagsNamespace } from "../domain/system-tags.js";
import type { Revision } from "./revisions.js";
import type { PreviewSchemas, SchemasC } from "./schemas.js";

/**
 * Response shapes per revision. Revision C renders ids as strings and hides the A/B source
 * fields; the preview prefix (A and B) serves the union of A's and B's fields, so that clients of
 * both revisions read what they expect.
 */

const isPreview = (revision: Revision): revision is "a" | "b" => revision !== "c";

type ShapeName = keyof PreviewSchemas & keyof SchemasC;

/** A value in the shape of revision C, or of the preview prefix (A's fields alongside B's). */
type Shaped<Name extends ShapeName> = PreviewSchemas[Name] | SchemasC[Name];

/** A function that shapes a record for a revision: C's shape for C, the preview shape for A and B. */
interface Shaper<Name extends ShapeName, Args extends unknown[]> {
  (revision: "c", ...args: Args): SchemasC[Name];
  (revision: "a" | "b", ...args: Args): PreviewSchemas[Name];
  (revision: Revision, ...args: Args): Shaped<Name>;
}

/**
 * Types a shape function by revision. Its branches check their literals against the revision's
 * schema (`satisfies`); the signature tells callers which of them they get.
 */
const shaper = <Name extends ShapeName, Args extends unknown[]>(
  shape: (revision: Revision, ...args: Args) => Shaped<Name>,
) => shape as Shaper<Name, Args>;

/** An experiment; revision C's carries its tags, presented in `namespace` (the request's). */
export const experimentOut = shaper(
  (revision: Revision, e: ExperimentRecord, namespace: string): Shaped<"Experiment"> => {
    const common = {
      name: e.name,
      artifact_location: e.artifactLocation,
      lifecycle_stage: e.lifecycleStage,
      last_update_time: e.lastUpdateTime,
      creation_time: e.creationTime,
    };
    if (isPreview(revision)) return { experiment_id: e.experimentId, ...common } satisfies PreviewSchemas["Experiment"];
    return {
      experiment_id: String(e.experimentId),
      ...common,
      tags: swapTagsNamespace(namespace, e.tags),
    } satisfies SchemasC["Experiment"];
  },
);

export const metricOut = shaper((revision: Revision, m: MetricRecord): Shaped<"Metric"> => {
  const value = doubleOut(m.value);
  // One object per metric (a page of runs/search can hold thousands).
  return isPreview(revision)
    ? ({ key: m.key, value, timestamp: m.timestamp } satisfies PreviewSchemas["Metric"])
    : ({ key: m.key, value, timestamp: m.timestamp, step: m.step } satisfies SchemasC["Metric"]);
});

type SourceType = NonNullable<PreviewSchemas["RunInfo"]["source_type"]>;
const SOURCE_TYPES: ReadonlySet<string> = new Set<SourceType>(["NOTEBOOK", "JOB", "PROJECT", "LOCAL", "UNKNOWN"]);
const isSourceType = (value: string | undefined): value is SourceType => value !== undefined && SOURCE_TYPES.has(value);

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

/**
 * RunInfo of a revision; the preview shape needs the run's tags as stored (A carries them in
 * RunInfo, with their system tags in the request's namespace: see domain/system-tags.ts).
 */
export const runInfoOut = shaper(
  (revision: Revision, info: RunInfoRecord, tags: KeyValue[], namespace: string): Shaped<"RunInfo"> => {
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
      } satisfies SchemasC["RunInfo"];
    }
    const names = STORED_TAGS;
    const tag = (key: string) => tags.find((t) => t.key === key)?.value;
    const sourceType = tag(names.sourceType);
    const optional = (field: string, value: string | undefined) => (value === undefined ? {} : { [field]: value });
    return {
      run_uuid: info.runId,
      experiment_id: info.experimentId,
      name: info.runName,
      ...(isSourceType(sourceType) ? { source_type: sourceType } : {}),
      ...optional("source_name", tag(names.sourceName)),
      user_id: info.userId,
      status: info.status,
      start_time: info.startTime,
      ...endTime,
      ...optional("source_version", tag(names.sourceVersion)),
      ...optional("entry_point_name", tag(names.entryPoint)),
      tags: swapTagsNamespace(namespace, tags),
      artifact_uri: info.artifactUri,
      lifecycle_stage: info.lifecycleStage,
    } satisfies PreviewSchemas["RunInfo"];
  },
);

/**
 * A whole run: C reports the latest metric by timestamp, A/B the last logged one. System tags are
 * presented in `namespace` (the request's).
 */
export const runOut = shaper((revision: Revision, run: RunRecord, namespace: string): Shaped<"Run"> => {
  const data = { params: run.params, tags: swapTagsNamespace(namespace, run.tags) };
  if (isPreview(revision)) {
    return {
      info: runInfoOut(revision, run.info, run.tags, namespace),
      data: { metrics: run.lastLoggedMetrics.map((m) => metricOut(revision, m)), ...data },
    } satisfies PreviewSchemas["Run"];
  }
  return {
    info: runInfoOut(revision, run.info, run.tags, namespace),
    data: { metrics: run.latestMetrics.map((m) => metricOut(revision, m)), ...data },
  } satisfies SchemasC["Run"];
});
