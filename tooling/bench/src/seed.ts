import crypto from "node:crypto";
import pg from "pg";
import type { Sizes } from "./settings.js";

/**
 * Seeds the big tables with set-based SQL (generate_series), not through HTTP: the server's
 * schema (created by `tracker db migrate`), filled the way the server fills it, including the
 * latest_metrics row of every (run, key). Deterministic: setseed() fixes random().
 */

export interface Dataset {
  searchExperimentId: number;
  writeExperimentId: number;
  /**
   * The experiment CreateRun adds its runs to: not the write experiment, whose runs experiments/get
   * lists (up to 1,000), so that what experiments/get reads does not depend on CreateRun's rate.
   */
  createExperimentId: number;
  /** Runs that log-metric / log-batch write to. */
  writeRunIds: string[];
  /** The run with `wideRunMetricKeys` metric keys (runs/get). */
  wideRunId: string;
  /** The run with `historyPoints` values of the metric `loss`. */
  historyRunId: string;
  historyKey: string;
  /** A registered model of the model-versions/search scenario. */
  modelName: string;
}

const T0 = 1_700_000_000_000;
const md5 = (s: string) => crypto.createHash("md5").update(s).digest("hex");
const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** `searchRuns: false` skips the big runs/search tables (for `--only` runs without runs/search). */
export async function seed(
  url: string,
  sizes: Sizes,
  log: (line: string) => void,
  parts: { searchRuns: boolean } = { searchRuns: true },
): Promise<Dataset> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    const result = await db.query(sql, params);
    log(`  ${label}: ${result.rowCount ?? 0} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    await db.query("SELECT setseed(0.42)");
    await step(
      "experiments",
      `INSERT INTO experiments (name, artifact_location, creation_time, last_update_time)
       SELECT 'bench-exp-' || lpad(g::text, 5, '0'), '/tmp/tracker-bench/artifacts/exp-' || g, $1::bigint + g, $1::bigint + (g * 7919) % $2
       FROM generate_series(1, $2) AS g`,
      [T0, sizes.experiments],
    );
    await step(
      "experiment tags",
      `INSERT INTO experiment_tags (experiment_id, key, value)
       SELECT experiment_id, 'team', 'team-' || (experiment_id % 20) FROM experiments WHERE name LIKE 'bench-exp-%'`,
    );
    const newExperiment = async (name: string) =>
      Number(
        (
          await db.query(
            `INSERT INTO experiments (name, artifact_location, creation_time, last_update_time) VALUES ($1, $2, $3, $3) RETURNING experiment_id`,
            [name, `/tmp/tracker-bench/artifacts/${name}`, T0],
          )
        ).rows[0].experiment_id,
      );
    const searchExperimentId = await newExperiment("bench-search");
    const writeExperimentId = await newExperiment("bench-writes");
    const createExperimentId = await newExperiment("bench-creates");

    if (parts.searchRuns) {
      await step(
        "search runs",
        `INSERT INTO runs (run_uuid, experiment_id, run_name, user_id, status, start_time, end_time, artifact_uri)
         SELECT md5('search-' || g), $1, 'run-' || g, 'bench', 'FINISHED', $2::bigint + g * 1000, $2::bigint + g * 1000 + 500,
                '/tmp/tracker-bench/artifacts/bench-search/' || md5('search-' || g) || '/artifacts'
         FROM generate_series(1, $3) AS g`,
        [searchExperimentId, T0, sizes.searchRuns],
      );
      await step(
        "search run params",
        `INSERT INTO params (run_uuid, key, value)
         SELECT md5('search-' || g), 'p' || k, 'v' || floor(random() * $3)::int
         FROM generate_series(1, $1) AS g CROSS JOIN generate_series(0, $2 - 1) AS k`,
        [sizes.searchRuns, sizes.paramsPerRun, sizes.paramValues],
      );
      await step(
        "search run tags",
        `INSERT INTO tags (run_uuid, key, value)
         SELECT md5('search-' || g), (ARRAY['tracker.user', 'tracker.runName', 'tracker.source.type', 'tracker.note'])[k + 1],
                (ARRAY['bench', 'run-' || g, 'LOCAL', 'note ' || g])[k + 1]
         FROM generate_series(1, $1) AS g CROSS JOIN generate_series(0, $2 - 1) AS k`,
        [sizes.searchRuns, Math.min(sizes.tagsPerRun, 4)],
      );
      await step(
        "search run metrics",
        `INSERT INTO metrics (run_uuid, key, value, timestamp, step)
         SELECT md5('search-' || g), 'm' || k, random(), $3::bigint + g * 1000 + 400, 99
         FROM generate_series(1, $1) AS g CROSS JOIN generate_series(0, $2 - 1) AS k`,
        [sizes.searchRuns, sizes.metricsPerRun, T0],
      );
    }

    const wideRunId = md5("wide-run");
    const historyRunId = md5("history-run");
    await step(
      "write, wide and history runs",
      `INSERT INTO runs (run_uuid, experiment_id, run_name, user_id, status, start_time, artifact_uri)
       SELECT id, $1, name, 'bench', 'RUNNING', $2, '/tmp/tracker-bench/artifacts/bench-writes/' || id || '/artifacts'
       FROM (SELECT md5('write-' || g) AS id, 'write-' || g AS name FROM generate_series(1, $3) AS g
             UNION ALL SELECT $4, 'wide-run' UNION ALL SELECT $5, 'history-run') AS r`,
      [writeExperimentId, T0, sizes.writeRuns, wideRunId, historyRunId],
    );
    await step(
      "wide run metrics",
      `INSERT INTO metrics (run_uuid, key, value, timestamp, step)
       SELECT $1, 'metric_' || lpad(k::text, 3, '0'), random(), $2, 0 FROM generate_series(0, $3 - 1) AS k`,
      [wideRunId, T0, sizes.wideRunMetricKeys],
    );
    await step(
      "wide run params and tags",
      `WITH p AS (INSERT INTO params (run_uuid, key, value) SELECT $1, 'param_' || k, 'value ' || k FROM generate_series(0, 9) AS k)
       INSERT INTO tags (run_uuid, key, value) VALUES ($1, 'tracker.user', 'bench'), ($1, 'tracker.runName', 'wide-run')`,
      [wideRunId],
    );
    await step(
      "history run metrics",
      `INSERT INTO metrics (run_uuid, key, value, timestamp, step)
       SELECT $1, 'loss', CASE WHEN g % 10000 = 0 THEN 'NaN'::float8 ELSE 1.0 / g END, $2::bigint + g, g
       FROM generate_series(1, $3) AS g`,
      [historyRunId, T0, sizes.historyPoints],
    );
    await step(
      "latest_metrics",
      `INSERT INTO latest_metrics (run_uuid, key, value, timestamp, step, last_value, last_timestamp, last_step, last_id)
       SELECT DISTINCT ON (run_uuid, key) run_uuid, key, value, timestamp, step, value, timestamp, step, id
       FROM metrics ORDER BY run_uuid, key, id DESC`,
    );

    const models = Array.from({ length: sizes.registeredModels }, (_, m) => `bench-model-${pad(m, 3)}`);
    await step(
      "registered models",
      `INSERT INTO registered_models (name, creation_timestamp, last_updated_timestamp, description, user_id, next_version)
       SELECT 'bench-model-' || lpad(m::text, 3, '0'), $1::bigint + m, $1::bigint + m, 'model ' || m, 'bench', $3 + 1
       FROM generate_series(0, $2 - 1) AS m`,
      [T0, sizes.registeredModels, sizes.versionsPerModel],
    );
    await step(
      "model versions",
      `INSERT INTO model_versions (name, version, creation_timestamp, last_updated_timestamp, last_stage_transition, user_id,
                                   current_stage, description, source, run_id)
       SELECT 'bench-model-' || lpad(m::text, 3, '0'), v, $1::bigint + m * 1000 + v, $1::bigint + m * 1000 + v, $1::bigint + m * 1000 + v,
              'bench', (ARRAY['None', 'Staging', 'Production', 'Archived'])[1 + v % 4], '',
              '/tmp/tracker-bench/artifacts/bench-search/' || md5('search-' || (m * $3 + v)) || '/artifacts/model',
              md5('search-' || (m * $3 + v))
       FROM generate_series(0, $2 - 1) AS m CROSS JOIN generate_series(1, $3) AS v`,
      [T0, sizes.registeredModels, sizes.versionsPerModel],
    );
    const started = performance.now();
    await db.query("VACUUM ANALYZE");
    log(`  VACUUM ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return {
      searchExperimentId,
      writeExperimentId,
      createExperimentId,
      writeRunIds: Array.from({ length: sizes.writeRuns }, (_, i) => md5(`write-${i + 1}`)),
      wideRunId,
      historyRunId,
      historyKey: "loss",
      modelName: models[Math.floor(models.length / 2)],
    };
  } finally {
    await db.end();
  }
}
