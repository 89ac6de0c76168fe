import { beforeAll, describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

interface Point {
  key: string;
  value: number | string;
  timestamp: number;
  step: number;
  run_id: string;
}

describe.each(testDatabases())("metrics/get-history-bulk-interval on %s", (kind) => {
  const suite = useTestServer(kind);
  const api = suite.api;
  const runs: Record<string, string> = {};
  const BIG = 10_000;
  const bulk = async (query: Record<string, unknown>, prefix = "/api/2.0/tracker") =>
    call<{ metrics: Point[]; error_code?: string; message?: string }>(
      suite.url,
      "GET",
      `${prefix}/metrics/get-history-bulk-interval`,
      query,
    );

  beforeAll(async () => {
    const exp = await api.post<{ experiment_id: string }>("experiments/create", { name: "sampling" });
    const create = async (name: string) => {
      const res = await api.post<{ run: { info: { run_id: string } } }>("runs/create", {
        experiment_id: exp.body.experiment_id,
        run_name: name,
      });
      runs[name] = res.body.run.info.run_id;
      return runs[name]!;
    };
    const log = async (id: string, values: Array<{ step: number; value: number | string }>) => {
      for (let i = 0; i < values.length; i += 1000) {
        const metrics = values
          .slice(i, i + 1000)
          .map((v) => ({ key: "loss", value: v.value, step: v.step, timestamp: 1_000_000 + v.step }));
        const res = await api.post("runs/log-batch", { run_id: id, metrics });
        expect(res.status).toBe(200);
      }
    };
    // Logged out of step order on purpose: sampling orders by step.
    await log(await create("few"), [
      { step: 2, value: 0.2 },
      { step: 0, value: 1 },
      { step: 1, value: 0.5 },
    ]);
    await log(await create("one"), [{ step: 7, value: 3 }]);
    const big = Array.from({ length: BIG }, (_, step) => ({ step, value: Math.sin(step / 100) }));
    big[4321]!.value = 1000;
    big[8765]!.value = -1000;
    await log(await create("big"), big);
    const nan = Array.from({ length: 400 }, (_, step) => ({
      step,
      value: step === 0 || step === 200 ? "NaN" : step % 7,
    }));
    await log(await create("nan"), nan);
    await create("empty");
  });

  it("returns short histories whole, in step order, with run ids", async () => {
    const res = await bulk({ run_ids: [runs.few, runs.one, runs.empty], metric_key: "loss" });
    expect(res.status).toBe(200);
    const few = res.body.metrics.filter((m) => m.run_id === runs.few);
    expect(few.map((m) => [m.step, m.value])).toEqual([
      [0, 1],
      [1, 0.5],
      [2, 0.2],
    ]);
    expect(res.body.metrics.filter((m) => m.run_id === runs.one)).toEqual([
      { key: "loss", value: 3, timestamp: 1_000_007, step: 7, run_id: runs.one },
    ]);
    expect(res.body.metrics.some((m) => m.run_id === runs.empty)).toBe(false);
  });

  it("samples a long history to at most max_results points keeping first, last, spikes and dips", async () => {
    for (const maxResults of [1, 4, 100, 2500]) {
      const res = await bulk({ run_ids: [runs.big], metric_key: "loss", max_results: maxResults });
      const steps = res.body.metrics.map((m) => m.step);
      expect(steps.length).toBeLessThanOrEqual(maxResults);
      expect(steps.length).toBeGreaterThan(0);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
      if (maxResults >= 4) {
        expect(steps[0]).toBe(0);
        expect(steps[steps.length - 1]).toBe(BIG - 1);
        expect(res.body.metrics.some((m) => m.value === 1000)).toBe(true);
        expect(res.body.metrics.some((m) => m.value === -1000)).toBe(true);
      }
    }
    const whole = await bulk({ run_ids: [runs.big], metric_key: "loss" });
    expect(whole.body.metrics.length).toBeLessThanOrEqual(2500);
    expect(whole.body.metrics.length).toBeGreaterThanOrEqual(625 * 2); // 625 buckets of 16 points, each keeps 2 to 4
  });

  it("keeps NaN as a point but never as a bucket's minimum or maximum", async () => {
    const res = await bulk({ run_ids: [runs.nan], metric_key: "loss", max_results: 8 });
    const values = res.body.metrics.map((m) => m.value);
    expect(values.length).toBeLessThanOrEqual(8);
    expect(values[0]).toBe("NaN"); // the first point of the first bucket
    expect(values).toContain(6); // each half holds a 6 (step % 7), the maximum
    expect(values.filter((v) => v === 0).length).toBeGreaterThan(0); // and a 0, the minimum
  });

  it("limits to a step range, inclusive", async () => {
    const res = await bulk({ run_ids: [runs.big, runs.few], metric_key: "loss", start_step: 1, end_step: 2 });
    expect(res.body.metrics.map((m) => [m.run_id === runs.big ? "big" : "few", m.step])).toEqual(
      [
        ["big", 1],
        ["big", 2],
        ["few", 1],
        ["few", 2],
      ].sort(
        (a, b) =>
          ((a[0] === "big") === runs.big! < runs.few! ? -1 : 1) - ((b[0] === "big") === runs.big! < runs.few! ? -1 : 1),
      ),
    );
    const sampled = await bulk({
      run_ids: [runs.big],
      metric_key: "loss",
      start_step: 5000,
      end_step: 9999,
      max_results: 40,
    });
    expect(sampled.body.metrics.every((m) => m.step >= 5000 && m.step <= 9999)).toBe(true);
    expect(sampled.body.metrics.some((m) => m.value === -1000)).toBe(true);
    expect(sampled.body.metrics.some((m) => m.value === 1000)).toBe(false);
  });

  it("answers under the MLflow paths too (ajax-api, mlflow segment)", async () => {
    const res = await bulk({ run_ids: [runs.few], metric_key: "loss", max_results: 2 }, "/ajax-api/2.0/mlflow");
    expect(res.status).toBe(200);
    expect(res.body.metrics.length).toBeLessThanOrEqual(2);
  });

  it("refuses bad input with 400 and unknown runs with 404", async () => {
    const bad = async (query: Record<string, unknown>, fragment: RegExp) => {
      const res = await bulk(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
      expect(res.body.message).toMatch(fragment);
    };
    await bad({ metric_key: "loss" }, /run_ids/);
    await bad({ run_ids: [runs.few] }, /metric_key/);
    await bad(
      { run_ids: Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(32, "0")), metric_key: "loss" },
      /run_ids/,
    );
    await bad({ run_ids: [runs.few], metric_key: "loss", max_results: 0 }, /max_results/);
    await bad({ run_ids: [runs.few], metric_key: "loss", max_results: 2501 }, /max_results/);
    await bad({ run_ids: [runs.few], metric_key: "loss", start_step: 3 }, /start_step/);
    await bad({ run_ids: [runs.few], metric_key: "loss", start_step: 3, end_step: 1 }, /start_step/);
    const missing = await bulk({ run_ids: [runs.few, "f".repeat(32)], metric_key: "loss" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });
});
