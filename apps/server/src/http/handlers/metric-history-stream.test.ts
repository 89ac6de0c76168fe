import { beforeAll, describe, expect, it } from "vitest";
import { metricHistoryPages } from "../../store/runs.js";
import { testDatabases, useTestServer } from "@tracker/testing";

/**
 * metrics/get-history streams its body page by page (response validation, which wraps res.json,
 * does not see it), so this checks the streamed bytes themselves: they parse, match the spec's
 * GetMetricHistoryResponse shape, and equal what res.json would have sent.
 */

const POINTS = 12_345; // more than two pages of 5,000 rows

function valueAt(i: number): number {
  if (i === 7) return Infinity;
  if (i === 8) return -Infinity;
  if (i % 1000 === 999) return NaN;
  return i / 7;
}

const wire = (v: number) => (Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : v);

/** The spec's Metric (revision C: key, value, timestamp, step; the preview revisions have no step). */
function checkMetricShape(item: unknown, withStep: boolean): void {
  expect(typeof item).toBe("object");
  const m = item as Record<string, unknown>;
  expect(Object.keys(m).sort()).toEqual(
    withStep ? ["key", "step", "timestamp", "value"] : ["key", "timestamp", "value"],
  );
  expect(typeof m.key).toBe("string");
  expect(typeof m.value === "number" || ["NaN", "Infinity", "-Infinity"].includes(m.value as string)).toBe(true);
  expect(Number.isInteger(m.timestamp)).toBe(true);
  if (withStep) expect(Number.isInteger(m.step)).toBe(true);
}

describe.each(testDatabases())("metrics/get-history streaming on %s", (kind) => {
  const suite = useTestServer(kind);
  const { api } = suite;
  let runId: string;
  beforeAll(async () => {
    const experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "history-stream" }))
      .body.experiment_id;
    runId = (await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId })).body
      .run.info.run_id;
    for (let start = 0; start < POINTS; start += 1000) {
      const metrics = [];
      for (let i = start; i < Math.min(POINTS, start + 1000); i++)
        metrics.push({ key: "loss", value: wire(valueAt(i)), timestamp: 1000 + i, step: i });
      const res = await api.post("runs/log-batch", { run_id: runId, metrics });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }, 120_000);

  it("streams every value in insertion order, byte for byte what res.json would send (revision C)", async () => {
    const res = await fetch(`${suite.url}/api/2.0/tracker/metrics/get-history?run_id=${runId}&metric_key=loss`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await res.text();
    const expected = Array.from({ length: POINTS }, (_, i) => ({
      key: "loss",
      value: wire(valueAt(i)),
      timestamp: 1000 + i,
      step: i,
    }));
    expect(text).toBe(JSON.stringify({ metrics: expected }));
    const body = JSON.parse(text) as { metrics: unknown[] };
    expect(Object.keys(body)).toEqual(["metrics"]);
    for (const item of body.metrics) checkMetricShape(item, true);
  });

  it("streams the preview revisions' shape (no step)", async () => {
    const res = await fetch(
      `${suite.url}/api/2.0/preview/tracker/metrics/get-history?run_uuid=${runId}&metric_key=loss`,
    );
    expect(res.status).toBe(200);
    const body = JSON.parse(await res.text()) as { metrics: unknown[] };
    expect(body.metrics).toHaveLength(POINTS);
    for (const item of body.metrics) checkMetricShape(item, false);
    expect(body.metrics[7]).toEqual({ key: "loss", value: "Infinity", timestamp: 1007 });
  });

  it("answers an empty history and a missing run as before", async () => {
    const empty = await fetch(`${suite.url}/api/2.0/tracker/metrics/get-history?run_id=${runId}&metric_key=nothing`);
    expect(await empty.text()).toBe('{"metrics":[]}');
    const missing = await api.get("metrics/get-history", { run_id: "a".repeat(32), metric_key: "loss" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("pages by id without losing or repeating values at page boundaries", async () => {
    for (const pageRows of [999, 1000, 2469, 5000, POINTS, POINTS + 1]) {
      const steps: number[] = [];
      let pages = 0;
      for await (const page of metricHistoryPages(suite.server.database.knex, runId, "loss", pageRows)) {
        pages++;
        steps.push(...page.map((m) => m.step));
      }
      expect(steps).toEqual(Array.from({ length: POINTS }, (_, i) => i));
      expect(pages).toBe(Math.ceil(POINTS / pageRows));
    }
  }, 120_000);
});
