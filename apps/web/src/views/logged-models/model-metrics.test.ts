import { describe, expect, it } from "vitest";
import { latestMetrics, loggedModelIdOf, metricSummaries, statusLabel } from "./model-metrics";

describe("latestMetrics", () => {
  it("keeps each key's point with the highest step, then the latest timestamp, sorted by key", () => {
    const points = [
      { key: "loss", value: 0.5, step: 1, timestamp: 10 },
      { key: "acc", value: 0.7, step: 2, timestamp: 5 },
      { key: "loss", value: 0.4, step: 1, timestamp: 11 },
      { key: "acc", value: 0.6, step: 1, timestamp: 20 },
    ];
    expect(latestMetrics(points).map((p) => [p.key, p.value])).toEqual([
      ["acc", 0.7],
      ["loss", 0.4],
    ]);
    expect(latestMetrics(undefined)).toEqual([]);
  });
});

describe("metricSummaries", () => {
  it("gives each key its latest point and its history in step order", () => {
    const points = [
      { key: "loss", value: 0.5, step: 1, timestamp: 10 },
      { key: "loss", value: 0.9, step: 0, timestamp: 30 },
      { key: "acc", value: "NaN" as const, step: 0, timestamp: 5 },
    ];
    expect(metricSummaries(points)).toEqual([
      { key: "acc", latest: "NaN", step: 0, history: [Number.NaN] },
      { key: "loss", latest: 0.5, step: 1, history: [0.9, 0.5] },
    ]);
    expect(metricSummaries(undefined)).toEqual([]);
  });
});

describe("statusLabel and loggedModelIdOf", () => {
  it("shortens statuses and reads model ids from models:/ sources only", () => {
    expect(statusLabel("LOGGED_MODEL_READY")).toBe("READY");
    const id = `m-${"a".repeat(32)}`;
    expect(loggedModelIdOf(`models:/${id}`)).toBe(id);
    expect(loggedModelIdOf(`models:/${id}/sub`)).toBe(id);
    expect(loggedModelIdOf("models:/fraud-model/1")).toBeUndefined();
    expect(loggedModelIdOf("runs:/abc/model")).toBeUndefined();
    expect(loggedModelIdOf(undefined)).toBeUndefined();
  });
});
