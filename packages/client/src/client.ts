// TrackerClient: the tracking and registry operations of revision C on one object, as MLflow's
// MlflowClient has them.
import { RunBatcher, type RunBatcherOptions } from "./batcher.js";
import { RegistryClient } from "./registry.js";
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
export class TrackerClient extends TrackingClient {
  /** A batcher that buffers metrics, params and tags for one run and sends them with log-batch. */
  batcher(runId: string, options?: RunBatcherOptions): RunBatcher {
    return new RunBatcher(this, runId, options);
  }
}

// The registry methods join the tracking ones (declaration merging with a mixin, see the TypeScript
// handbook's "Mixins"): both classes hold nothing but `raw`, which TrackerClient has.
export interface TrackerClient extends RegistryClient {}
for (const name of Object.getOwnPropertyNames(RegistryClient.prototype)) {
  if (name === "constructor") continue;
  const descriptor = Object.getOwnPropertyDescriptor(RegistryClient.prototype, name);
  if (descriptor) Object.defineProperty(TrackerClient.prototype, name, descriptor);
}
