import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

describe.each(testDatabases())("0003_performance indexes on %s", (kind) => {
  const suite = useTestServer(kind);
  const { api } = suite;

  it("covers metric and param values in the primary keys and (key, value) indexes, and metric history in its index", async () => {
    const indexes = await suite.server.database.knex.raw(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('latest_metrics', 'params', 'tags', 'metrics') ORDER BY indexname`,
    );
    const defs = new Map(
      (indexes.rows as Array<{ indexname: string; indexdef: string }>).map((r) => [r.indexname, r.indexdef]),
    );
    expect(defs.get("latest_metrics_pkey")).toMatch(/\(run_uuid, key\) INCLUDE \(value\)/);
    expect(defs.get("latest_metrics_key_value_idx")).toMatch(/\(key, value\) INCLUDE \(run_uuid\)/);
    expect(defs.get("params_pkey")).toMatch(/\(run_uuid, key\) INCLUDE \(value\)/);
    expect(defs.get("params_key_value_idx")).toMatch(/\(key, value\) INCLUDE \(run_uuid\)/);
    expect(defs.get("metrics_history_idx")).toMatch(/\(run_uuid, key, id\) INCLUDE \(value, "timestamp", step\)/);
    expect(defs.has("metrics_run_key_idx")).toBe(false);
    expect(defs.has("tags_key_value_idx")).toBe(false);
  });

  it("stores a 5000-byte incompressible tag value (too long for a btree entry) and finds it by value", async () => {
    const experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "long-tags" })).body
      .experiment_id;
    const runId = (
      await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId })
    ).body.run.info.run_id;
    const value = crypto.randomBytes(2500).toString("hex");
    const set = await api.post("runs/set-tag", { run_id: runId, key: "long", value });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const found = await api.post<{ runs: Array<{ info: { run_id: string } }> }>("runs/search", {
      experiment_ids: [experimentId],
      filter: `tags.long = '${value}'`,
    });
    expect(found.body.runs.map((r) => r.info.run_id)).toEqual([runId]);
  });
});
