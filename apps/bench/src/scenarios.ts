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
  request(n: number): HttpRequest;
  /** Replacements in the captured statements for the n-th raw replay (the captured request is n = 0). */
  substitutions(n: number): Array<[string, string]>;
}

const API = "/api/2.0/tracker";
const REGISTRY = "/api/2.0/preview/tracker";
const T0 = 1_800_000_000_000;

export function scenarios(data: Dataset, sizes: Sizes): Scenario[] {
  const runs = data.writeRunIds;
  const runOf = (n: number) => runs[n % runs.length];
  const writeSubstitution = (n: number): Array<[string, string]> => (n % runs.length === 0 ? [] : [[runs[0], runOf(n)]]);

  // One log-batch body per run: batchMetrics values over batchKeys keys (a training loop's
  // buffered steps), built once so the load generator only sends bytes.
  const batchBodies = runs.map((runId) =>
    JSON.stringify({
      run_id: runId,
      metrics: Array.from({ length: sizes.batchMetrics }, (_, i) => ({
        key: `batch_metric_${i % sizes.batchKeys}`,
        value: Math.sin(i) * 10,
        timestamp: T0 + Math.floor(i / sizes.batchKeys),
        step: Math.floor(i / sizes.batchKeys),
      })),
    }),
  );

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
  const versionsQuery = new URLSearchParams({ filter: `name = '${data.modelName}'` }).toString();

  const none = () => [];
  return [
    {
      name: "log-metric",
      description: `runs/log-metric, one value a request, rotating over ${runs.length} runs`,
      connections: 8,
      scale: true,
      request: (n) => {
        const step = Math.floor(n / runs.length);
        return {
          method: "POST",
          path: `${API}/runs/log-metric`,
          body: JSON.stringify({ run_id: runOf(n), key: "loss", value: 1 / (step + 1), timestamp: T0 + step, step }),
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
      request: (n) => ({ method: "POST", path: `${API}/runs/log-batch`, body: batchBodies[n % runs.length] }),
      substitutions: writeSubstitution,
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
      name: "metrics/get-history",
      description: `metrics/get-history of ${sizes.historyPoints.toLocaleString("en-US")} points`,
      connections: 2,
      scale: false,
      request: () => ({ method: "GET", path: `${API}/metrics/get-history?run_id=${data.historyRunId}&metric_key=${data.historyKey}` }),
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
}
