import { beforeAll, describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

interface WireRun {
  info: { run_id: string; run_name: string };
  data: {
    metrics?: Array<{ key: string; value: number }>;
    params?: Array<{ key: string; value: string }>;
    tags?: Array<{ key: string; value: string }>;
  };
}

describe.each(testDatabases())("runs/search-columns and runs/keys on %s", (kind) => {
  const suite = useTestServer(kind);
  let experimentId: string;
  const KEYS = 1000;

  beforeAll(async () => {
    const api = suite.api;
    experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "wide" })).body
      .experiment_id;
    for (const name of ["a", "b"]) {
      const run = await api.post<{ run: WireRun }>("runs/create", {
        experiment_id: experimentId,
        run_name: name,
        tags: [
          { key: "tracker.user", value: "u" },
          { key: "team", value: "x" },
          { key: "noise", value: "n" },
        ],
      });
      const id = run.body.run.info.run_id;
      const metrics = Array.from({ length: KEYS }, (_, i) => ({ key: `m${i}`, value: i, timestamp: 1, step: 0 }));
      expect((await api.post("runs/log-batch", { run_id: id, metrics })).status).toBe(200);
      expect(
        (
          await api.post("runs/log-batch", {
            run_id: id,
            params: [
              { key: "lr", value: "0.1" },
              { key: "seed", value: "1" },
            ],
          })
        ).status,
      ).toBe(200);
    }
  });

  const search = (body: Record<string, unknown>) =>
    call<{ runs: WireRun[]; next_page_token?: string; error_code?: string; message?: string }>(
      suite.url,
      "POST",
      "/api/2.0/tracker/runs/search-columns",
      body,
    );

  it("returns only the chosen keys plus system tags, and far fewer bytes than runs/search", async () => {
    const res = await search({
      experiment_ids: [experimentId],
      metric_keys: ["m7"],
      param_keys: ["lr"],
      tag_keys: ["team"],
      order_by: ["attributes.run_name ASC"],
    });
    expect(res.status).toBe(200);
    expect(res.body.runs.map((r) => r.info.run_name)).toEqual(["a", "b"]);
    for (const run of res.body.runs) {
      expect(run.data.metrics).toEqual([{ key: "m7", value: 7, timestamp: 1, step: 0 }]);
      expect(run.data.params).toEqual([{ key: "lr", value: "0.1" }]);
      expect(run.data.tags?.map((t) => t.key).sort()).toEqual(["team", "tracker.runName", "tracker.user"].sort());
    }
    const full = await call(suite.url, "POST", "/api/2.0/tracker/runs/search", { experiment_ids: [experimentId] });
    expect(JSON.stringify(full.body).length).toBeGreaterThan(JSON.stringify(res.body).length * 20);
  });

  it("keeps runs/search's criteria, paging and errors", async () => {
    const first = await search({ experiment_ids: [experimentId], filter: "metrics.m999 >= 999", max_results: 1 });
    expect(first.body.runs).toHaveLength(1);
    expect(first.body.runs[0]!.data.metrics ?? []).toEqual([]);
    const second = await search({
      experiment_ids: [experimentId],
      filter: "metrics.m999 >= 999",
      max_results: 1,
      page_token: first.body.next_page_token,
    });
    expect(second.body.runs).toHaveLength(1);
    expect(second.body.runs[0]!.info.run_id).not.toBe(first.body.runs[0]!.info.run_id);
    const bad = await search({ experiment_ids: [experimentId], filter: "metrics.m1 >>> 2" });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("INVALID_PARAMETER_VALUE");
    const tooMany = await search({
      experiment_ids: [experimentId],
      metric_keys: Array.from({ length: 1001 }, (_, i) => `k${i}`),
    });
    expect(tooMany.status).toBe(400);
  });

  it("lists the distinct keys of the experiments' runs", async () => {
    const res = await call<{ metric_keys: string[]; param_keys: string[]; tag_keys: string[]; truncated: boolean }>(
      suite.url,
      "GET",
      "/api/2.0/tracker/runs/keys",
      { experiment_ids: [experimentId] },
    );
    expect(res.status).toBe(200);
    expect(res.body.metric_keys).toHaveLength(KEYS);
    expect(res.body.param_keys).toEqual(["lr", "seed"]);
    expect(res.body.tag_keys).toEqual(["noise", "team", "tracker.runName", "tracker.user"]);
    expect(res.body.truncated).toBe(false);
    const none = await call(suite.url, "GET", "/api/2.0/tracker/runs/keys", {});
    expect(none.status).toBe(400);
    const malformed = await call(suite.url, "GET", "/api/2.0/tracker/runs/keys", { experiment_ids: ["abc"] });
    expect(malformed.status).toBe(400);
  });
});
