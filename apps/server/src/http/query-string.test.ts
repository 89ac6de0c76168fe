import { beforeAll, describe, expect, it } from "vitest";
import { call, useTestServer } from "@tracker/testing";
import { parseQueryString, QUERY_ARRAY_LIMIT } from "./query-string.js";

const repeated = (key: string, n: number, style: "" | "[]" = "") =>
  Array.from({ length: n }, (_, i) => `${key}${style}=v${i}`).join("&");

describe("parseQueryString", () => {
  it("gives an array for every repeated parameter, past qs's default of 20 values", () => {
    for (const n of [1, 2, 20, 21, 100, QUERY_ARRAY_LIMIT]) {
      const parsed = parseQueryString(repeated("run_ids", n));
      expect(n === 1 ? [parsed.run_ids] : parsed.run_ids, `${n} values`).toEqual(
        Array.from({ length: n }, (_, i) => `v${i}`),
      );
      expect(parseQueryString(repeated("stages", n, "[]")).stages).toHaveLength(n);
    }
    expect(parseQueryString("a=1&b=2&a=3")).toEqual({ a: ["1", "3"], b: "2" });
  });

  it("keeps an index far past the limit an object, never a huge sparse array", () => {
    expect(parseQueryString("k[5000000]=x").k).toEqual({ 5000000: "x" });
    expect(parseQueryString("k[3]=x").k).toEqual(["x"]);
  });
});

describe("repeated query parameters over HTTP", () => {
  const suite = useTestServer("pglite");
  const runIds: string[] = [];
  beforeAll(async () => {
    const exp = await suite.api.post<{ experiment_id: string }>("experiments/create", { name: "many-runs" });
    for (let i = 0; i < 100; i++) {
      const run = await suite.api.post<{ run: { info: { run_id: string } } }>("runs/create", {
        experiment_id: exp.body.experiment_id,
      });
      runIds.push(run.body.run.info.run_id);
      await suite.api.post("runs/log-metric", {
        run_id: run.body.run.info.run_id,
        key: "loss",
        value: i,
        timestamp: 1_000_000,
        step: 0,
      });
    }
  });

  it("answers get-history-bulk-interval for 21 and for 100 repeated run_ids (tracker's and MLflow's paths)", async () => {
    for (const n of [21, 100]) {
      for (const prefix of ["/api/2.0/tracker", "/ajax-api/2.0/mlflow"]) {
        const res = await call<{ metrics: Array<{ run_id: string }>; message?: string }>(
          suite.url,
          "GET",
          `${prefix}/metrics/get-history-bulk-interval`,
          { run_ids: runIds.slice(0, n), metric_key: "loss" },
        );
        expect(res.status, `${n} runs at ${prefix}: ${res.body.message}`).toBe(200);
        expect(new Set(res.body.metrics.map((m) => m.run_id)).size).toBe(n);
      }
    }
  });
});
