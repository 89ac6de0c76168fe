import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

export const scenario: ExtScenario = {
  name: "runs/search-columns returns only the chosen keys; runs/keys lists them (400 and 401 included)",
  async run({ ext, unauthenticated, client, fetch, url }) {
    const experimentId = await client.createExperiment(`columns-${Date.now()}`);
    const run = await client.createRun(experimentId, { runName: "wide", tags: { team: "ml", other: "x" } });
    await client.logBatch(run.info.run_id, {
      metrics: Array.from({ length: 50 }, (_, i) => ({ key: `m${i}`, value: i })),
      params: { lr: 0.1, seed: 1 },
    });

    const [found] = await client
      .searchRunsColumns(experimentId, { metricKeys: ["m3"], paramKeys: ["lr"], tagKeys: ["team"] })
      .toArray();
    expect(found!.data.metrics.map((m) => m.key)).toEqual(["m3"]);
    expect(found!.data.params).toEqual([{ key: "lr", value: "0.1" }]);
    expect(found!.data.tags.map((t) => t.key)).toContain("team");
    expect(found!.data.tags.map((t) => t.key)).not.toContain("other");
    const keys = await client.listRunKeys([experimentId]);
    expect(keys.metric_keys).toHaveLength(50);
    expect(keys.param_keys).toEqual(["lr", "seed"]);
    expect(keys.truncated).toBe(false);

    const bad = await ext.POST("/api/2.0/tracker/runs/search-columns", {
      body: { experiment_ids: [experimentId], filter: "metrics.m1 >>> 1" },
    });
    expect(bad.response.status).toBe(400);
    const badKeys = await ext.GET("/api/2.0/tracker/runs/keys", {
      params: { query: { experiment_ids: ["not-a-number"] } },
    });
    expect(badKeys.response.status).toBe(400);
    const tooLarge = await fetch(`${url}/api/2.0/tracker/runs/search-columns`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ experiment_ids: [experimentId], filter: "x".repeat(1_100_000) }),
    });
    expect(tooLarge.status).toBe(413);
    const denied = await unauthenticated.POST("/api/2.0/tracker/runs/search-columns", {
      body: { experiment_ids: [experimentId] },
    });
    expect(denied.response.status).toBe(401);
    const deniedKeys = await unauthenticated.GET("/api/2.0/tracker/runs/keys", {
      params: { query: { experiment_ids: [experimentId] } },
    });
    expect(deniedKeys.response.status).toBe(401);
  },
};
