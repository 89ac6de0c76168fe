import type { HttpRequest } from "./load.js";
import type { Dataset } from "./seed.js";
import type { Sizes } from "./settings.js";

/** The scenarios of issue 9: what each sends over HTTP, and how the raw replay of it varies. */
export interface Scenario {
  name: string;
  description: string;
  /** Concurrent HTTP connections (and raw clients). */
  connections: number;
  /** Rows written per request, for a row rate (log-batch). */
  rowsPerRequest?: number;
  /** Part of the 1 vs N workers comparison. */
  scale: boolean;
  /** The raw side also JSON.stringify()s the rows it fetched (a large answer's serialisation). */
  stringify?: boolean;
  /**
   * No raw side: the captured statements cannot be replayed as they are (runs/create inserts the
   * run id the server made up, which a replay would insert again).
   */
  noRaw?: boolean;
  request(n: number): HttpRequest;
  /** Replacements in the captured statements for the n-th raw replay (the captured request is n = CAPTURE_N). */
  substitutions(n: number): Array<[string, string]>;
}

const API = "/api/2.0/tracker";
/** The same operations on MLflow's paths (MLflow's system tags and value limits). */
const MLFLOW_API = "/api/2.0/mlflow";
const REGISTRY = "/api/2.0/preview/tracker";
const T0 = 1_800_000_000_000;

/**
 * The request whose SQL is captured for the raw side is request(CAPTURE_N): past the indexes the
 * HTTP runs use, and a multiple of the write runs (its writes go to the first run).
 */
export const CAPTURE_N = 5_000_000;

/** Page size of the large-answer scenarios. */
const LARGE_PAGE = 1000;

/** The calibration scenario: a bare Express 5 route answering a small JSON body (calibration-server.mjs). */
export const CALIBRATION = {
  name: "calibration",
  description: 'GET of a bare Express 5 route answering {"ok":1}, its own process',
  connections: 8,
};

/**
 * The database calibration scenario (calibration-db-server.mjs): a bare Express 5 route that reads a
 * log-metric-like JSON body and runs one named prepared INSERT of it through pg, then answers {}.
 * Every request carries its own step and timestamp, as the write scenarios do.
 */
export const CALIBRATION_DB = {
  name: "calibration-db",
  description:
    "POST of a log-metric-like JSON body to a bare Express 5 route (express.json()) that runs one named prepared INSERT on a pg pool and answers {}, its own process",
  connections: 8,
  request: (n: number): HttpRequest => ({ method: "POST", path: "/write", body: calibrationPoint(n) }),
};

/**
 * The stack calibration scenario (calibration-db-server.mjs with revision C's document): the same
 * write through express-openapi-validator, set up as tracker sets it up, on runs/log-metric: the
 * floor of a write with the libraries tracker is built on (Express, the validator, pg).
 */
export const CALIBRATION_STACK = {
  name: "calibration-stack",
  description:
    "the same POST to runs/log-metric of a bare Express 5 application that checks it with express-openapi-validator against revision C's document (set up as tracker's, without tracker's own shortcuts) before the INSERT, its own process",
  connections: 8,
  request: (n: number): HttpRequest => ({
    method: "POST",
    path: "/api/2.0/tracker/runs/log-metric",
    body: calibrationPoint(n),
  }),
};

/** The calibration writes' body: a log-metric request with its own step and timestamp. */
function calibrationPoint(n: number): string {
  return JSON.stringify({ run_id: "calibration", key: "loss", value: 1 / (n + 1), timestamp: T0 + n, step: n });
}

export function scenarios(data: Dataset, sizes: Sizes): Scenario[] {
  const runs = data.writeRunIds;
  const runOf = (n: number) => runs[n % runs.length];
  // Every write carries distinct data (a point already stored would be skipped): the n-th write
  // goes to run n mod runs, at "round" n div runs, with timestamps T0 + round * 100 + (0..99). So
  // the raw side's replays differ too, they substitute the timestamps' common prefix
  // (String(T0 / 100), which a round adds to) and the run; its rounds start past the HTTP side's.
  const roundOf = (n: number) => Math.floor(n / runs.length);
  const timestamp = (n: number, k = 0) => T0 + roundOf(n) * 100 + k;
  const RAW_ROUNDS_FROM = 10_000_000;
  if (CAPTURE_N % runs.length !== 0) throw new Error(`CAPTURE_N must be a multiple of the ${runs.length} write runs`);
  const capturedPrefix = String(T0 / 100 + roundOf(CAPTURE_N));
  const writeSubstitution = (n: number): Array<[string, string]> => [
    [runs[0], runOf(n)],
    [capturedPrefix, String(T0 / 100 + roundOf(n + RAW_ROUNDS_FROM))],
  ];

  // A log-batch body: batchMetrics values over batchKeys keys (a training loop's buffered steps).
  const stepsPerBatch = Math.ceil(sizes.batchMetrics / sizes.batchKeys);
  const batchBody = (n: number) =>
    JSON.stringify({
      run_id: runOf(n),
      metrics: Array.from({ length: sizes.batchMetrics }, (_, i) => ({
        key: `batch_metric_${i % sizes.batchKeys}`,
        value: Math.sin(i) * 10,
        timestamp: timestamp(n, Math.floor(i / sizes.batchKeys)),
        step: roundOf(n) * stepsPerBatch + Math.floor(i / sizes.batchKeys),
      })),
    });

  const searchBody = JSON.stringify({
    experiment_ids: [String(data.searchExperimentId)],
    filter: "metrics.m1 > 0.5 and params.p1 = 'v3'",
    order_by: ["metrics.m2 DESC"],
    max_results: sizes.searchMaxResults,
  });
  const experimentsBody = JSON.stringify({
    filter: "name LIKE 'bench-exp-%7'",
    order_by: ["last_update_time DESC"],
    max_results: sizes.experimentMaxResults,
  });
  // Large answers: 1,000 runs (of the 10,000 with p1 = 'v3') and 1,000 experiments a page.
  const largeSearchBody = JSON.stringify({
    experiment_ids: [String(data.searchExperimentId)],
    filter: "params.p1 = 'v3'",
    order_by: ["metrics.m2 DESC"],
    max_results: LARGE_PAGE,
  });
  const largeExperimentsBody = JSON.stringify({ order_by: ["last_update_time DESC"], max_results: LARGE_PAGE });
  const versionsQuery = new URLSearchParams({ filter: `name = '${data.modelName}'` }).toString();

  const none = () => [];
  // LogParamBatch10 re-logs these same params to the first write run: equal values are accepted.
  const paramBatchBody = JSON.stringify({
    run_id: runs[0],
    params: Array.from({ length: 10 }, (_, i) => ({ key: `k6_param_${i}`, value: `value-${i}` })),
  });
  const onTrackerPaths: Scenario[] = [
    {
      name: "log-metric",
      description: `runs/log-metric, one value a request, rotating over ${runs.length} runs`,
      connections: 8,
      scale: true,
      request: (n) => {
        const step = roundOf(n);
        return {
          method: "POST",
          path: `${API}/runs/log-metric`,
          body: JSON.stringify({ run_id: runOf(n), key: "loss", value: 1 / (step + 1), timestamp: timestamp(n), step }),
        };
      },
      substitutions: writeSubstitution,
    },
    {
      name: "log-batch",
      description: `runs/log-batch of ${sizes.batchMetrics} metrics (${sizes.batchKeys} keys), rotating over ${runs.length} runs`,
      connections: 4,
      rowsPerRequest: sizes.batchMetrics,
      scale: true,
      request: (n) => ({ method: "POST", path: `${API}/runs/log-batch`, body: batchBody(n) }),
      substitutions: writeSubstitution,
    },
    {
      name: "LogMetricBatch10",
      description: `runs/log-batch of 10 metrics (MLflow's k6 script), rotating over ${runs.length} runs`,
      connections: 8,
      scale: false,
      request: (n) => ({
        method: "POST",
        path: `${API}/runs/log-batch`,
        body: JSON.stringify({
          run_id: runOf(n),
          metrics: Array.from({ length: 10 }, (_, i) => ({
            key: `k6_metric_${i}`,
            value: Math.cos(n + i),
            timestamp: timestamp(n),
            step: roundOf(n),
          })),
        }),
      }),
      substitutions: writeSubstitution,
    },
    {
      name: "LogParamBatch10",
      description: "runs/log-batch of the same 10 params to one run, again and again (MLflow's k6 script)",
      connections: 8,
      scale: false,
      request: () => ({ method: "POST", path: `${API}/runs/log-batch`, body: paramBatchBody }),
      substitutions: none,
    },
    {
      name: "CreateRun",
      description:
        "runs/create in an experiment of its own, with a run name and a tag (no raw side: a replay would insert the same run id)",
      connections: 8,
      scale: true,
      noRaw: true,
      request: (n) => ({
        method: "POST",
        path: `${API}/runs/create`,
        body: JSON.stringify({
          experiment_id: String(data.createExperimentId),
          start_time: timestamp(n),
          run_name: `bench-run-${n}`,
          tags: [{ key: "bench", value: "create" }],
        }),
      }),
      substitutions: none,
    },
    {
      name: "runs/get",
      description: `runs/get of a run with ${sizes.wideRunMetricKeys} metric keys`,
      connections: 8,
      scale: true,
      request: () => ({ method: "GET", path: `${API}/runs/get?run_id=${data.wideRunId}` }),
      substitutions: none,
    },
    {
      name: "experiments/get",
      description: "experiments/get of one experiment",
      connections: 8,
      scale: false,
      request: () => ({ method: "GET", path: `${API}/experiments/get?experiment_id=${data.writeExperimentId}` }),
      substitutions: none,
    },
    {
      name: "metrics/get-history",
      description: `metrics/get-history of ${sizes.historyPoints.toLocaleString("en-US")} points`,
      connections: 2,
      scale: false,
      request: () => ({
        method: "GET",
        path: `${API}/metrics/get-history?run_id=${data.historyRunId}&metric_key=${data.historyKey}`,
      }),
      substitutions: none,
    },
    {
      name: "runs/search",
      description: `runs/search over ${sizes.searchRuns.toLocaleString("en-US")} runs x ${sizes.metricsPerRun} metrics x ${sizes.paramsPerRun} params: metric and param filter, order by a metric, ${sizes.searchMaxResults} a page`,
      connections: 4,
      scale: true,
      request: () => ({ method: "POST", path: `${API}/runs/search`, body: searchBody }),
      substitutions: none,
    },
    {
      name: "runs/search-1000",
      description: `runs/search returning ${LARGE_PAGE} runs (param filter, order by a metric) of the ${sizes.searchRuns.toLocaleString("en-US")} in the experiment; the raw side also JSON.stringify()s the rows`,
      connections: 2,
      scale: false,
      stringify: true,
      request: () => ({ method: "POST", path: `${API}/runs/search`, body: largeSearchBody }),
      substitutions: none,
    },
    {
      name: "experiments/search-1000",
      description: `experiments/search returning ${LARGE_PAGE} experiments, order by last_update_time; the raw side also JSON.stringify()s the rows`,
      connections: 4,
      scale: false,
      stringify: true,
      request: () => ({ method: "POST", path: `${API}/experiments/search`, body: largeExperimentsBody }),
      substitutions: none,
    },
    {
      name: "experiments/search",
      description: `experiments/search over ${sizes.experiments.toLocaleString("en-US")} experiments: name filter, order by last_update_time, ${sizes.experimentMaxResults} a page`,
      connections: 8,
      scale: true,
      request: () => ({ method: "POST", path: `${API}/experiments/search`, body: experimentsBody }),
      substitutions: none,
    },
    {
      name: "model-versions/search",
      description: `model-versions/search over ${(sizes.registeredModels * sizes.versionsPerModel).toLocaleString("en-US")} versions: the ${sizes.versionsPerModel} versions of one model`,
      connections: 8,
      scale: true,
      request: () => ({ method: "GET", path: `${REGISTRY}/model-versions/search?${versionsQuery}` }),
      substitutions: none,
    },
  ];
  return [...onTrackerPaths, ...onTrackerPaths.filter((x) => WRITES.has(x.name)).map(onMlflowPaths)];
}

/** The write scenarios, measured on MLflow's paths too (`mlflow:<name>`). */
export const WRITES: ReadonlySet<string> = new Set([
  "log-metric",
  "log-batch",
  "LogMetricBatch10",
  "LogParamBatch10",
  "CreateRun",
]);

export const MLFLOW_PREFIX = "mlflow:";

/** A scenario sent to MLflow's paths instead of tracker's (same bodies; the raw side is the same SQL). */
function onMlflowPaths(s: Scenario): Scenario {
  return {
    ...s,
    name: `${MLFLOW_PREFIX}${s.name}`,
    description: `${s.description}, on MLflow's paths (${MLFLOW_API})`,
    scale: false,
    request: (n) => {
      const r = s.request(n);
      return { ...r, path: r.path.replace(API, MLFLOW_API) };
    },
  };
}
