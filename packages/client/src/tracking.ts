// The tracking half of the ergonomic client: experiments, runs, metrics, params, tags, artifacts.
// Every method calls one operation of revision C (logBatch may call it several times).
import { splitBatch } from "./batch-limits.js";
import type {
  Experiment,
  FileInfo,
  LogBatchInput,
  Metric,
  ParamValue,
  Run,
  RunInfo,
  RunStatus,
  TagsInput,
  ViewType,
} from "./entities.js";
import { isTrackerError } from "./errors.js";
import { Paginated } from "./pagination.js";
import { searchRequestFields } from "./search-request.js";
import { ClientCore } from "./client-core.js";
import { expectData, expectOk } from "./response.js";
import { fromWireMetric, fromWireRun, toKeyValues, toWireDouble, toWireMetric } from "./wire.js";

export interface CreateExperimentOptions {
  /** Where the experiment's runs store artifacts; the server picks `<artifact root>/<id>` when omitted. */
  artifactLocation?: string;
  tags?: TagsInput;
}

export interface SearchExperimentsOptions {
  /** Filter over name, tags and times, e.g. `name LIKE 'fraud%' AND tags.team = 'ml'`. */
  filter?: string;
  /** Sort keys, e.g. `["last_update_time DESC"]`. */
  orderBy?: string[];
  /** Which experiments by lifecycle stage (default ACTIVE_ONLY). */
  viewType?: ViewType;
  /** Experiments fetched per request (1 to 50 000; default 1000). */
  pageSize?: number;
}

export interface CreateRunOptions {
  runName?: string;
  /** Milliseconds since the epoch; the time of the call when omitted. */
  startTime?: number;
  tags?: TagsInput;
  /** Deprecated by the API in favour of the tag `tracker.user`. */
  userId?: string;
}

export interface UpdateRunOptions {
  status?: RunStatus;
  /** Milliseconds since the epoch. */
  endTime?: number;
  runName?: string;
}

export interface SearchRunsOptions {
  /** Filter over metrics, params, tags and attributes, e.g. `metrics.acc > 0.9 AND params.model = 'cnn'`. */
  filter?: string;
  /** Sort keys, e.g. `["metrics.acc DESC"]`. */
  orderBy?: string[];
  /** Which runs by lifecycle stage (default ACTIVE_ONLY). */
  viewType?: ViewType;
  /** Runs fetched per request (1 to 50 000; default 1000). */
  pageSize?: number;
}

export interface LogMetricOptions {
  /** Milliseconds since the epoch; the time of the call when omitted. */
  timestamp?: number;
  /** Defaults to 0. */
  step?: number;
}

const DEFAULT_SEARCH_PAGE_SIZE = 1000;

/** The body of one page of runs/search (and of tracker's runs/search-columns, which adds to it). */
export function runSearchBody(
  experimentIds: string | readonly string[],
  options: SearchRunsOptions,
  pageToken: string | undefined,
): { experiment_ids: string[]; run_view_type?: ViewType } & ReturnType<typeof searchRequestFields> {
  return {
    experiment_ids: typeof experimentIds === "string" ? [experimentIds] : [...experimentIds],
    run_view_type: options.viewType,
    ...searchRequestFields(options, pageToken, DEFAULT_SEARCH_PAGE_SIZE),
  };
}

/** Tracking operations of revision C, named and shaped after MLflow's MlflowClient. */
export class TrackingClient extends ClientCore {
  // ----- experiments -----

  /** Creates an experiment and returns its id. */
  async createExperiment(name: string, options: CreateExperimentOptions = {}): Promise<string> {
    const body = { name, artifact_location: options.artifactLocation, tags: options.tags && toKeyValues(options.tags) };
    const data = await expectData(this.raw.POST("/2.0/tracker/experiments/create", { body }));
    return data.experiment_id;
  }

  async getExperiment(experimentId: string): Promise<Experiment> {
    const data = await expectData(
      this.raw.GET("/2.0/tracker/experiments/get", { params: { query: { experiment_id: experimentId } } }),
    );
    return data.experiment;
  }

  /** The experiment with this exact name (active preferred over deleted), or undefined when there is none. */
  async getExperimentByName(name: string): Promise<Experiment | undefined> {
    try {
      const data = await expectData(
        this.raw.GET("/2.0/tracker/experiments/get-by-name", { params: { query: { experiment_name: name } } }),
      );
      return data.experiment;
    } catch (error) {
      if (isTrackerError(error, "RESOURCE_DOES_NOT_EXIST")) return undefined;
      throw error;
    }
  }

  /** Experiments matching the options, over all pages. */
  searchExperiments(options: SearchExperimentsOptions = {}): Paginated<Experiment> {
    return new Paginated(async (pageToken) => {
      const body = {
        ...searchRequestFields(options, pageToken, DEFAULT_SEARCH_PAGE_SIZE),
        view_type: options.viewType,
      };
      const data = await expectData(this.raw.POST("/2.0/tracker/experiments/search", { body }));
      return { items: data.experiments, nextPageToken: data.next_page_token };
    });
  }

  async renameExperiment(experimentId: string, newName: string): Promise<void> {
    await expectOk(
      this.raw.POST("/2.0/tracker/experiments/update", { body: { experiment_id: experimentId, new_name: newName } }),
    );
  }

  async deleteExperiment(experimentId: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/experiments/delete", { body: { experiment_id: experimentId } }));
  }

  async restoreExperiment(experimentId: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/experiments/restore", { body: { experiment_id: experimentId } }));
  }

  async setExperimentTag(experimentId: string, key: string, value: string): Promise<void> {
    await expectOk(
      this.raw.POST("/2.0/tracker/experiments/set-experiment-tag", {
        body: { experiment_id: experimentId, key, value },
      }),
    );
  }

  // ----- runs -----

  /** Starts a run (status RUNNING) in an experiment; `"0"` is the experiment Default. */
  async createRun(experimentId: string, options: CreateRunOptions = {}): Promise<Run> {
    const body = {
      experiment_id: experimentId,
      run_name: options.runName,
      start_time: options.startTime ?? Date.now(),
      user_id: options.userId,
      tags: options.tags && toKeyValues(options.tags),
    };
    const data = await expectData(this.raw.POST("/2.0/tracker/runs/create", { body }));
    return fromWireRun(data.run);
  }

  /** The run with its latest metric values, params and tags. */
  async getRun(runId: string): Promise<Run> {
    const data = await expectData(this.raw.GET("/2.0/tracker/runs/get", { params: { query: { run_id: runId } } }));
    return fromWireRun(data.run);
  }

  async updateRun(runId: string, options: UpdateRunOptions): Promise<RunInfo> {
    const body = { run_id: runId, status: options.status, end_time: options.endTime, run_name: options.runName };
    const data = await expectData(this.raw.POST("/2.0/tracker/runs/update", { body }));
    return data.run_info;
  }

  /** Ends a run: sets its status (FINISHED by default) and its end time (now by default). */
  async setTerminated(runId: string, status: RunStatus = "FINISHED", endTime: number = Date.now()): Promise<RunInfo> {
    return this.updateRun(runId, { status, endTime });
  }

  async deleteRun(runId: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/runs/delete", { body: { run_id: runId } }));
  }

  async restoreRun(runId: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/runs/restore", { body: { run_id: runId } }));
  }

  /** Runs of the given experiments matching the options, over all pages. */
  searchRuns(experimentIds: string | readonly string[], options: SearchRunsOptions = {}): Paginated<Run> {
    return new Paginated(async (pageToken) => {
      const body = runSearchBody(experimentIds, options, pageToken);
      const data = await expectData(this.raw.POST("/2.0/tracker/runs/search", { body }));
      return { items: data.runs.map(fromWireRun), nextPageToken: data.next_page_token };
    });
  }

  // ----- metrics, params, tags -----

  /** Appends one value to a metric (NaN and ±Infinity included). */
  async logMetric(runId: string, key: string, value: number, options: LogMetricOptions = {}): Promise<void> {
    const body = {
      run_id: runId,
      key,
      value: toWireDouble(value),
      timestamp: options.timestamp ?? Date.now(),
      step: options.step ?? 0,
    };
    await expectOk(this.raw.POST("/2.0/tracker/runs/log-metric", { body }));
  }

  /** Records a param; a param cannot change its value once logged. */
  async logParam(runId: string, key: string, value: ParamValue): Promise<void> {
    await expectOk(
      this.raw.POST("/2.0/tracker/runs/log-parameter", { body: { run_id: runId, key, value: String(value) } }),
    );
  }

  async setTag(runId: string, key: string, value: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/runs/set-tag", { body: { run_id: runId, key, value } }));
  }

  async deleteTag(runId: string, key: string): Promise<void> {
    await expectOk(this.raw.POST("/2.0/tracker/runs/delete-tag", { body: { run_id: runId, key } }));
  }

  /**
   * Writes metrics, params and tags to a run. A batch over the API's limits (1000 items, 100 params,
   * 100 tags, 1 MB per request) is sent as several requests, one after another, in order.
   */
  async logBatch(runId: string, batch: LogBatchInput): Promise<void> {
    const now = Date.now();
    const wire = {
      metrics: (batch.metrics ?? []).map((metric) => toWireMetric(metric, now)),
      params: toKeyValues(batch.params),
      tags: toKeyValues(batch.tags),
    };
    for (const chunk of splitBatch(runId, wire)) {
      await expectOk(this.raw.POST("/2.0/tracker/runs/log-batch", { body: { run_id: runId, ...chunk } }));
    }
  }

  /** Records a logged model (its MLmodel descriptor) on a run. Experimental in the API. */
  async logModel(runId: string, model: Readonly<Record<string, unknown>>): Promise<void> {
    await expectOk(
      this.raw.POST("/2.0/tracker/runs/log-model", { body: { run_id: runId, model_json: JSON.stringify(model) } }),
    );
  }

  /** Every value ever logged for one metric of a run (in no guaranteed order). */
  async getMetricHistory(runId: string, key: string): Promise<Metric[]> {
    const data = await expectData(
      this.raw.GET("/2.0/tracker/metrics/get-history", { params: { query: { run_id: runId, metric_key: key } } }),
    );
    return data.metrics.map(fromWireMetric);
  }

  // ----- artifacts -----

  /** The files and directories directly below `path` (the root when omitted) of a run's artifacts, all pages. */
  async listArtifacts(runId: string, path?: string): Promise<FileInfo[]> {
    const pages = new Paginated<FileInfo>(async (pageToken) => {
      const query = { run_id: runId, path, page_token: pageToken };
      const data = await expectData(this.raw.GET("/2.0/tracker/artifacts/list", { params: { query } }));
      return { items: data.files, nextPageToken: data.next_page_token };
    });
    return pages.toArray();
  }
}
