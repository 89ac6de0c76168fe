// TrackerClient: the tracking and registry operations of revision C on one object, as MLflow's
// MlflowClient has them.
import { RunBatcher, type RunBatcherOptions } from "./batcher.js";
import { ArtifactsClient } from "./artifacts.js";
import { HealthClient } from "./health.js";
import { LoggedModelsClient } from "./logged-models.js";
import { MetricSamplingClient } from "./metric-sampling.js";
import { ModelAliasClient } from "./model-aliases.js";
import { RegistryClient } from "./registry.js";
import { RunColumnsClient } from "./run-columns.js";
import { RunInputsClient } from "./run-inputs.js";
import { RunModelLinksClient } from "./run-model-links.js";
import { ServerInfoClient } from "./server-info.js";
import { TrackingClient } from "./tracking.js";

/**
 * The ergonomic client for revision C: experiments, runs, metrics, params, tags, artifacts and the
 * model registry. Methods resolve to plain objects in the API's shape and throw TrackerError.
 *
 * @example
 * const client = new TrackerClient({ baseUrl: "http://127.0.0.1:5000" });
 * const experimentId = await client.createExperiment("fraud");
 * const run = await client.createRun(experimentId, { runName: "baseline" });
 * await client.logMetric(run.info.run_id, "auc", 0.91);
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the loop after PARTS copies every part's methods onto the class, as the interface below declares.
export class TrackerClient extends TrackingClient {
  /** A batcher that buffers metrics, params and tags for one run and sends them with log-batch. */
  batcher(runId: string, options?: RunBatcherOptions): RunBatcher {
    return new RunBatcher(this, runId, options);
  }
}

// The registry methods and those of tracker's extensions join the tracking ones (declaration
// merging with mixins, see the TypeScript handbook's "Mixins"): every part extends ClientCore and
// holds nothing but its `raw` and `ext` clients, which TrackerClient has. A new part of the client
// (one module per concern) is added to PARTS.
const PARTS = [
  RegistryClient,
  ModelAliasClient,
  RunInputsClient,
  RunModelLinksClient,
  ServerInfoClient,
  HealthClient,
  MetricSamplingClient,
  RunColumnsClient,
  ArtifactsClient,
  LoggedModelsClient,
] as const;

/** The intersection of the members of a union (A | B -> A & B). */
type Intersection<Union> = (Union extends unknown ? (member: Union) => void : never) extends (all: infer All) => void
  ? All
  : never;

/** Every part's methods, which the loop below copies onto TrackerClient. */
type ClientParts = Intersection<InstanceType<(typeof PARTS)[number]>>;

export interface TrackerClient extends ClientParts {}
for (const part of PARTS) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === "constructor") continue;
    const descriptor = Object.getOwnPropertyDescriptor(part.prototype, name);
    if (descriptor) Object.defineProperty(TrackerClient.prototype, name, descriptor);
  }
}
