import { describe, expect, it } from "vitest";
import { LOG_BATCH_LIMITS, batchSize, splitBatch, type WireBatch } from "./batch-limits.js";

const RUN = "a".repeat(32);
const metrics = (n: number, key = "m") =>
  Array.from({ length: n }, (_, i) => ({ key, value: i, timestamp: 1, step: i }));
const pairs = (n: number, prefix: string, value = "v") =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, value }));
const bodyBytes = (chunk: WireBatch) => new TextEncoder().encode(JSON.stringify({ run_id: RUN, ...chunk })).length;

function expectWithinLimits(chunks: WireBatch[]) {
  for (const chunk of chunks) {
    expect(chunk.metrics.length).toBeLessThanOrEqual(LOG_BATCH_LIMITS.metrics);
    expect(chunk.params.length).toBeLessThanOrEqual(LOG_BATCH_LIMITS.params);
    expect(chunk.tags.length).toBeLessThanOrEqual(LOG_BATCH_LIMITS.tags);
    expect(batchSize(chunk)).toBeLessThanOrEqual(LOG_BATCH_LIMITS.items);
    expect(bodyBytes(chunk)).toBeLessThanOrEqual(LOG_BATCH_LIMITS.bytes);
  }
}

describe("splitBatch", () => {
  it("sends a batch within the limits as one request", () => {
    const chunks = splitBatch(RUN, { metrics: metrics(900), params: pairs(50, "p"), tags: pairs(50, "t") });
    expect(chunks).toHaveLength(1);
    expect(batchSize(chunks[0])).toBe(1000);
  });

  it("splits 900 metrics + 50 params + 51 tags (1001 items) in two", () => {
    const chunks = splitBatch(RUN, { metrics: metrics(900), params: pairs(50, "p"), tags: pairs(51, "t") });
    expect(chunks).toHaveLength(2);
    expectWithinLimits(chunks);
    expect(chunks.reduce((n, c) => n + batchSize(c), 0)).toBe(1001);
  });

  it("splits metrics by 1000, params and tags by 100, keeping the order of each kind", () => {
    const chunks = splitBatch(RUN, { metrics: metrics(2500), params: pairs(250, "p"), tags: pairs(120, "t") });
    expectWithinLimits(chunks);
    expect(chunks.flatMap((c) => c.metrics.map((m) => m.step))).toEqual(metrics(2500).map((m) => m.step));
    expect(chunks.flatMap((c) => c.params.map((p) => p.key))).toEqual(pairs(250, "p").map((p) => p.key));
    expect(chunks.flatMap((c) => c.tags.map((t) => t.key))).toEqual(pairs(120, "t").map((t) => t.key));
    expect(chunks.map((c) => c.params.length)).toEqual(expect.arrayContaining([100, 100, 50]));
  });

  it("splits by bytes when 100 tags would exceed 1 MB", () => {
    // Valid log-batch values are at most 250 characters, so real batches stay far below 1 MB; values
    // this long exercise the byte bound all the same.
    const tags = pairs(100, "t", "é".repeat(4990));
    const chunks = splitBatch(RUN, { metrics: [], params: [], tags });
    expect(chunks).toHaveLength(2);
    expectWithinLimits(chunks);
    expect(chunks.flatMap((c) => c.tags)).toEqual(tags);
  });

  it("sends a single item over 1 MB alone and lets the server judge it", () => {
    const chunks = splitBatch(RUN, {
      metrics: metrics(2),
      params: [{ key: "huge", value: "x".repeat(1_100_000) }],
      tags: [],
    });
    expect(chunks.map((c) => [c.params.length, c.metrics.length])).toEqual([
      [1, 0],
      [0, 2],
    ]);
  });

  it("returns no request for an empty batch", () => {
    expect(splitBatch(RUN, { metrics: [], params: [], tags: [] })).toEqual([]);
  });
});
