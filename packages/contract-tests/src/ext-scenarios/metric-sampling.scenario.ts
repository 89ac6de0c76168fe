import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

export const scenario: ExtScenario = {
  name: "metrics/get-history-bulk-interval samples many runs' histories (400, 401 and 404 included)",
  async run({ ext, unauthenticated, client }) {
    const experimentId = await client.createExperiment(`sampling-${Date.now()}`);
    const a = await client.createRun(experimentId);
    const b = await client.createRun(experimentId);
    const metrics = Array.from({ length: 300 }, (_, step) => ({
      key: "loss",
      value: step === 150 ? 99 : step === 0 ? Number.NaN : 1 / (step + 1),
      step,
      timestamp: 1_700_000_000_000 + step,
    }));
    await client.logBatch(a.info.run_id, { metrics });
    await client.logMetric(b.info.run_id, "loss", 0.5, { step: 3 });

    const sampled = await client.getMetricHistoryBulkInterval([a.info.run_id, b.info.run_id], "loss", {
      maxResults: 20,
    });
    const ofA = sampled.filter((m) => m.runId === a.info.run_id);
    expect(ofA.length).toBeLessThanOrEqual(20);
    expect(ofA.some((m) => m.value === 99)).toBe(true);
    expect(Number.isNaN(ofA[0]!.value)).toBe(true);
    expect(sampled.filter((m) => m.runId === b.info.run_id)).toEqual([
      { key: "loss", value: 0.5, step: 3, timestamp: expect.any(Number), runId: b.info.run_id },
    ]);
    const ranged = await client.getMetricHistoryBulkInterval([a.info.run_id], "loss", { startStep: 10, endStep: 12 });
    expect(ranged.map((m) => m.step)).toEqual([10, 11, 12]);

    const path = "/api/2.0/tracker/metrics/get-history-bulk-interval" as const;
    const bad = await ext.GET(path, {
      params: { query: { run_ids: [a.info.run_id], metric_key: "loss", start_step: 5 } },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const missing = await ext.GET(path, { params: { query: { run_ids: ["0".repeat(32)], metric_key: "loss" } } });
    expect(missing.response.status).toBe(404);
    const denied = await unauthenticated.GET(path, {
      params: { query: { run_ids: [a.info.run_id], metric_key: "loss" } },
    });
    expect(denied.response.status).toBe(401);
  },
};
