import { describe, expect, it } from "vitest";
import { up as dedupeAndIndex } from "../db/migrations/0005_metric_points.js";
import { testDatabases, useExperimentSuite } from "@tracker/testing";

interface Metric {
  key: string;
  value: number | string;
  timestamp: number;
  step: number;
}

/**
 * A metric point (run, key, timestamp, step, value) is stored once, as MLflow's store does:
 * log-metric and log-batch skip points already stored, repeated in one batch, or written by
 * concurrent identical requests; latest_metrics stays right. Also counts the statements a
 * request sends to the database (docs/benchmarks.md shows them).
 */
describe.each(testDatabases())("metric points on %s", (kind) => {
  const suite = useExperimentSuite(kind, "metric-points");
  const { api, newRun, ok: post } = suite;
  const history = async (runId: string, key: string) =>
    (await api.get<{ metrics: Metric[] }>("metrics/get-history", { run_id: runId, metric_key: key })).body.metrics;
  const latest = async (runId: string) =>
    (await api.get<{ run: { data: { metrics: Metric[] } } }>("runs/get", { run_id: runId })).body.run.data.metrics;

  it("log-metric skips a point already stored (NaN and infinities included); latest stays right", async () => {
    const id = await newRun();
    const points = [
      { key: "m", value: 1.5, timestamp: 10, step: 0 },
      { key: "m", value: "NaN", timestamp: 20, step: 1 },
      { key: "m", value: "Infinity", timestamp: 5, step: 2 },
    ];
    for (let round = 0; round < 3; round++) for (const p of points) await post("runs/log-metric", { run_id: id, ...p });
    // Differs in one field each: stored.
    await post("runs/log-metric", { run_id: id, key: "m", value: 1.5, timestamp: 10, step: 1 });
    await post("runs/log-metric", { run_id: id, key: "m", value: 1.5, timestamp: 11, step: 0 });
    await post("runs/log-metric", { run_id: id, key: "m", value: 1.25, timestamp: 10, step: 0 });
    const values = (await history(id, "m")).map((m) => [m.value, m.timestamp, m.step]);
    expect(values).toEqual([
      [1.5, 10, 0],
      ["NaN", 20, 1],
      ["Infinity", 5, 2],
      [1.5, 10, 1],
      [1.5, 11, 0],
      [1.25, 10, 0],
    ]);
    expect(await latest(id)).toEqual([{ key: "m", value: "NaN", timestamp: 20, step: 1 }]);
  });

  it("log-batch skips points repeated in the batch and points already stored", async () => {
    const id = await newRun();
    const batch = [
      { key: "a", value: 1, timestamp: 1, step: 0 },
      { key: "a", value: 1, timestamp: 1, step: 0 },
      { key: "a", value: "NaN", timestamp: 2, step: 0 },
      { key: "a", value: "NaN", timestamp: 2, step: 0 },
      { key: "b", value: 3, timestamp: 1, step: 0 },
    ];
    await post("runs/log-batch", { run_id: id, metrics: batch });
    await post("runs/log-batch", { run_id: id, metrics: batch, params: [{ key: "p", value: "v" }] });
    expect((await history(id, "a")).map((m) => m.value)).toEqual([1, "NaN"]);
    expect((await history(id, "b")).map((m) => m.value)).toEqual([3]);
    expect(await latest(id)).toEqual([
      { key: "a", value: "NaN", timestamp: 2, step: 0 },
      { key: "b", value: 3, timestamp: 1, step: 0 },
    ]);
  });

  it("concurrent identical log-batch requests store each point once", async () => {
    const id = await newRun();
    const metrics = Array.from({ length: 50 }, (_, i) => ({
      key: `k${i % 5}`,
      value: i,
      timestamp: 1000 + i,
      step: i,
    }));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.post("runs/log-batch", { run_id: id, metrics })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rows = await suite.server.database
      .knex("metrics")
      .where({ run_uuid: id })
      .count<Array<{ count: string | number }>>("* as count");
    expect(Number(rows[0].count)).toBe(50);
    const got = await latest(id);
    expect(got).toEqual(
      [0, 1, 2, 3, 4].map((k) => ({ key: `k${k}`, value: 45 + k, timestamp: 1045 + k, step: 45 + k })),
    );
  });

  it("writes nothing to a missing or deleted run", async () => {
    const missing = await api.post("runs/log-metric", { run_id: "f".repeat(32), key: "m", value: 1, timestamp: 1 });
    expect(missing.status).toBe(404);
    const id = await newRun();
    await post("runs/delete", { run_id: id });
    const deleted = await api.post("runs/log-batch", {
      run_id: id,
      metrics: [{ key: "m", value: 1, timestamp: 1, step: 0 }],
    });
    expect(deleted.status).toBe(400);
    expect(deleted.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    expect(await suite.server.database.knex("metrics").where({ run_uuid: id }).first()).toBeUndefined();
  });

  it("sends one statement for log-metric, a log-batch of metrics (no transaction) and runs/get", async () => {
    const id = await newRun();
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    suite.server.database.knex.on("query", record);
    try {
      await post("runs/log-metric", { run_id: id, key: "m", value: 1, timestamp: 1, step: 0 });
      expect(statements).toHaveLength(1);
      statements.length = 0;
      const metrics = Array.from({ length: 100 }, (_, i) => ({ key: `k${i % 3}`, value: i, timestamp: i, step: i }));
      await post("runs/log-batch", { run_id: id, metrics });
      expect(statements).toHaveLength(1);
      expect(statements.join(";")).not.toMatch(/^\s*(BEGIN|COMMIT)/im);
      statements.length = 0;
      // runs/get: the run with its params, tags and latest metrics in one statement.
      expect((await api.get("runs/get", { run_id: id })).status).toBe(200);
      expect(statements).toHaveLength(1);
    } finally {
      suite.server.database.knex.off("query", record);
    }
  });

  it("the migration removes existing duplicates, keeping the first of each point, before it adds the unique index", async () => {
    const knex = suite.server.database.knex;
    const id = await newRun();
    await knex.raw("DROP INDEX metrics_point_key");
    try {
      const row = (value: number, step: number) => ({ run_uuid: id, key: "d", value, timestamp: 7, step });
      await knex("metrics").insert([
        row(1, 0),
        row(1, 0),
        row(Number.NaN, 0),
        row(2, 0),
        row(Number.NaN, 0),
        row(1, 1),
        row(1, 0),
      ]);
    } finally {
      await dedupeAndIndex(knex);
    }
    const kept = await knex("metrics").where({ run_uuid: id }).orderBy("id").select("value", "step");
    expect(kept.map((r: { value: number; step: number }) => [Number(r.value), Number(r.step)])).toEqual([
      [1, 0],
      [Number.NaN, 0],
      [2, 0],
      [1, 1],
    ]);
  });
});
