/**
 * Scenario sizes and load settings. The defaults are the numbers of issue 9; `--quick` swaps in
 * QUICK (a smoke run of a few seconds on a tiny dataset, used by the harness's own test).
 */

export interface Sizes {
  /** runs/search: runs in the searched experiment, each with this many metrics and params. */
  searchRuns: number;
  metricsPerRun: number;
  paramsPerRun: number;
  /** System tags per searched run (user and run name, as MLflow clients set them). */
  tagsPerRun: number;
  /** Distinct values of each param ('v0' .. 'v9'): the param filter keeps 1 in this many runs. */
  paramValues: number;
  /** runs/search page size (MLflow's UI asks for 100 runs a page). */
  searchMaxResults: number;
  /** metrics/get-history: points of the one metric of the history run. */
  historyPoints: number;
  /** runs/get: metric keys of the wide run. */
  wideRunMetricKeys: number;
  /** experiments/search: experiments in the database. */
  experiments: number;
  /** experiments/search page size. */
  experimentMaxResults: number;
  /** model-versions/search: registered models x versions each. */
  registeredModels: number;
  versionsPerModel: number;
  /** log-batch: metrics per request. */
  batchMetrics: number;
  /** Distinct keys in a log-batch request (batchMetrics / batchKeys steps each). */
  batchKeys: number;
  /** Runs that log-metric / log-batch rotate over (a training process per connection or more). */
  writeRuns: number;
}

export interface Load {
  /** Seconds of measured load per scenario and side. */
  seconds: number;
  /** Seconds of unmeasured warm-up before each measured HTTP and raw run. */
  warmupSeconds: number;
  /** Start-up benchmark (PGlite) runs; 0 skips the section. */
  startupRuns: number;
  /** Worker counts compared in the horizontal-scale section; empty skips it. */
  workerCounts: number[];
  /** Run the scenarios again on the embedded default (PostgreSQL started by tracker server). */
  embedded: boolean;
}

export const FULL: Sizes = {
  searchRuns: 100_000,
  metricsPerRun: 10,
  paramsPerRun: 10,
  tagsPerRun: 2,
  paramValues: 10,
  searchMaxResults: 100,
  historyPoints: 100_000,
  wideRunMetricKeys: 100,
  experiments: 10_000,
  experimentMaxResults: 100,
  registeredModels: 100,
  versionsPerModel: 100,
  batchMetrics: 1000,
  batchKeys: 10,
  writeRuns: 64,
};

export const QUICK: Sizes = {
  ...FULL,
  searchRuns: 1_000,
  historyPoints: 12_000,
  experiments: 200,
  registeredModels: 10,
  versionsPerModel: 10,
  writeRuns: 8,
};

/** When `--baseline` measures the other build: beside each scenario of this build, or after them all. */
export type BaselineOrder = "interleaved" | "after";

export const FULL_LOAD: Load = { seconds: 10, warmupSeconds: 2, startupRuns: 3, workerCounts: [1, 2], embedded: true };
export const QUICK_LOAD: Load = {
  seconds: 0.8,
  warmupSeconds: 0.2,
  startupRuns: 0,
  workerCounts: [1, 2],
  embedded: true,
};

/** Targets of issue 9, checked against the measured figures. */
export const TARGETS = {
  /** log-batch: tracker's metric-row rate at least this fraction of the raw rate. */
  batchIngestFraction: 0.5,
  /** runs/search: tracker p50 at most this multiple of the raw p50 ... */
  searchP50Ratio: 3,
  /** ... and under this many milliseconds. */
  searchP50Ms: 100,
  /** metrics/get-history: server RSS growth under this many bytes. */
  historyRssGrowthBytes: 100 * 1024 * 1024,
  /** Request rate as a share of the calibration scenario's (a bare Express route), same run, same connections. */
  ofCalibration: { "log-metric": 0.5, "runs/get": 0.5, "experiments/get": 0.6 } as Record<string, number>,
  /** Large answers: tracker's p50 at most this multiple of the raw SQL + JSON.stringify p50. */
  largeAnswerP50Ratio: 2,
  /** The embedded default: every scenario's req/s at least PostgreSQL's divided by this, same run. */
  embeddedSlowdown: 1.5,
  /** The embedded default: the server process's peak RSS under this many bytes. */
  embeddedRssBytes: 200 * 1024 * 1024,
  /** Every scenario: p99 at most this multiple of p50. */
  p99OverP50: 10,
  /** Issue 33: server CPU per request of these scenarios at most `ratio` x the bare Express route's. */
  cpuOfCalibration: { scenarios: ["log-metric", "runs/get"], ratio: 2.5 },
  /** Issue 33: write scenarios' server CPU per request at most this fraction of the baseline build's (`--baseline`). */
  writeCpuOfBaseline: 0.5,
  /** Issue 33: req/s at least this fraction of the baseline build's (no regression; the rest is noise). */
  rateOfBaseline: 0.95,
  /** Issue 33: server CPU per request at most PostgreSQL's for the same request. */
  cpuBelowPostgres: ["runs/search", "runs/search-1000", "experiments/search-1000"],
  /** Issue 33: server CPU per request with N workers at most this multiple of one worker's. */
  workersCpuRatio: 1.15,
};
