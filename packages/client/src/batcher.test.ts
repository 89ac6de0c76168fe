import { testDatabases, useTestServer } from "@tracker/testing";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RunBatcher, type BatchSink } from "./batcher.js";
import { TrackerClient } from "./client.js";
import type { LogBatchInput } from "./entities.js";
import { TrackerError } from "./errors.js";

const RUN = "b".repeat(32);

/** A sink that records every batch; `fail` makes the next calls reject. */
function recordingSink() {
  const batches: LogBatchInput[] = [];
  const sink: BatchSink & { fail?: Error } = {
    async logBatch(runId, batch) {
      expect(runId).toBe(RUN);
      if (sink.fail) throw sink.fail;
      batches.push(batch);
    },
  };
  return { sink, batches };
}

const counts = (batch: LogBatchInput) => [
  batch.metrics?.length ?? 0,
  (batch.params as unknown[]).length,
  (batch.tags as unknown[]).length,
];

describe("RunBatcher", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("buffers items and sends them on flush(), in order, with call-time timestamps", async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { sink, batches } = recordingSink();
    const batcher = new RunBatcher(sink, RUN);
    batcher.logMetric("loss", 0.9, { step: 0 });
    vi.setSystemTime(2_000);
    batcher.logMetric("loss", 0.5, { step: 1 });
    batcher.logParam("lr", 0.1);
    batcher.setTag("phase", "train");
    expect(batcher.pending).toBe(4);
    expect(batches).toEqual([]);

    await batcher.flush();
    expect(batcher.pending).toBe(0);
    expect(batches).toEqual([
      {
        metrics: [
          { key: "loss", value: 0.9, step: 0, timestamp: 1_000 },
          { key: "loss", value: 0.5, step: 1, timestamp: 2_000 },
        ],
        params: [{ key: "lr", value: "0.1" }],
        tags: [{ key: "phase", value: "train" }],
      },
    ]);
  });

  it("sends as soon as a request is full: 1000 items, 100 params or 100 tags", async () => {
    const { sink, batches } = recordingSink();
    const batcher = new RunBatcher(sink, RUN, { flushIntervalMs: 0 });
    for (let i = 0; i < 2500; i++) batcher.logMetric("m", i, { step: i });
    for (let i = 0; i < 150; i++) batcher.logParam(`p${i}`, i);
    for (let i = 0; i < 120; i++) batcher.setTag(`t${i}`, "v");
    await Promise.resolve();
    await vi.waitFor(() => expect(batches.length).toBeGreaterThanOrEqual(2));
    await batcher.close();

    expect(batches.map(counts)).toEqual([
      [1000, 0, 0],
      [1000, 0, 0],
      [500, 100, 0],
      [0, 50, 100],
      [0, 0, 20],
    ]);
    expect(batches.flatMap((b) => b.metrics ?? []).map((m) => m.step)).toEqual(
      Array.from({ length: 2500 }, (_, i) => i),
    );
  });

  it("sends on the interval, counting from the first waiting item", async () => {
    vi.useFakeTimers();
    const { sink, batches } = recordingSink();
    const batcher = new RunBatcher(sink, RUN, { flushIntervalMs: 500 });
    batcher.logMetric("m", 1);
    await vi.advanceTimersByTimeAsync(300);
    batcher.logMetric("m", 2);
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(batches.map((b) => b.metrics?.map((m) => m.value))).toEqual([[1, 2]]);

    // No timer while nothing waits; the next item starts a new one.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(batches).toHaveLength(1);
    batcher.logMetric("m", 3);
    await vi.advanceTimersByTimeAsync(500);
    expect(batches).toHaveLength(2);
    await batcher.close();
  });

  it("sends the rest on close() and refuses later logging", async () => {
    const { sink, batches } = recordingSink();
    const batcher = new RunBatcher(sink, RUN);
    batcher.logMetrics({ a: 1, b: 2 }, { step: 3 });
    batcher.logParams({ x: "y" });
    await batcher.close();
    expect(batches).toHaveLength(1);
    expect(batches[0].metrics?.map((m) => [m.key, m.step])).toEqual([
      ["a", 3],
      ["b", 3],
    ]);
    expect(batcher.closed).toBe(true);
    expect(() => batcher.logMetric("late", 1)).toThrow(/closed/);
    await batcher.close();
  });

  it("throws a background failure from the next flush(), then carries on", async () => {
    const { sink, batches } = recordingSink();
    const batcher = new RunBatcher(sink, RUN, { flushIntervalMs: 0 });
    sink.fail = new TrackerError({ errorCode: "TEMPORARILY_UNAVAILABLE", status: 503, message: "down" });
    for (let i = 0; i < 1000; i++) batcher.logMetric("m", i);
    await expect(batcher.flush()).rejects.toMatchObject({ errorCode: "TEMPORARILY_UNAVAILABLE" });

    sink.fail = undefined;
    batcher.logMetric("m", 1);
    await batcher.flush();
    expect(batches).toHaveLength(1);
  });

  it("hands failures to onError instead when given", async () => {
    const { sink } = recordingSink();
    const errors: unknown[] = [];
    const batcher = new RunBatcher(sink, RUN, { onError: (error) => errors.push(error) });
    sink.fail = new Error("nope");
    batcher.logMetric("m", 1);
    await batcher.close();
    expect(errors).toEqual([sink.fail]);
  });
});

describe.each(testDatabases())("RunBatcher against the server on %s", (kind) => {
  const suite = useTestServer(kind);
  let client: TrackerClient;
  beforeAll(async () => {
    client = new TrackerClient(suite.url);
  });

  it("logs 2500 metric values, 150 params and 120 tags one by one", async () => {
    const experimentId = await client.createExperiment("batcher-exp");
    const { info } = await client.createRun(experimentId);
    const batcher = client.batcher(info.run_id, { flushIntervalMs: 50 });
    for (let step = 0; step < 2500; step++) batcher.logMetric("loss", 1 / (step + 1), { step });
    batcher.logMetric("weird", NaN);
    for (let i = 0; i < 150; i++) batcher.logParam(`p${i}`, i);
    for (let i = 0; i < 120; i++) batcher.setTag(`t${i}`, `v${i}`);
    await batcher.close();

    expect(await client.getMetricHistory(info.run_id, "loss")).toHaveLength(2500);
    expect((await client.getMetricHistory(info.run_id, "weird"))[0].value).toBeNaN();
    const run = await client.getRun(info.run_id);
    expect(run.data.params).toHaveLength(150);
    expect(run.data.tags.filter((t) => /^t[0-9]+$/.test(t.key))).toHaveLength(120);
  });

  it("sends on the interval without flush()", async () => {
    const experimentId = await client.createExperiment("batcher-interval-exp");
    const { info } = await client.createRun(experimentId);
    const batcher = client.batcher(info.run_id, { flushIntervalMs: 20 });
    batcher.logMetric("tick", 1);
    await vi.waitFor(async () => expect(await client.getMetricHistory(info.run_id, "tick")).toHaveLength(1), {
      timeout: 5_000,
      interval: 20,
    });
    await batcher.close();
  });

  it("reports the server's error for a deleted run", async () => {
    const experimentId = await client.createExperiment("batcher-deleted-exp");
    const { info } = await client.createRun(experimentId);
    await client.deleteRun(info.run_id);
    const batcher = client.batcher(info.run_id);
    batcher.logMetric("m", 1);
    await expect(batcher.close()).rejects.toMatchObject({
      name: "TrackerError",
      errorCode: "INVALID_PARAMETER_VALUE",
      status: 400,
    });
  });
});
