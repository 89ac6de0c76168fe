import { describe, expect, it } from "vitest";
import { latestMetrics, loggedModelIdOf, statusLabel } from "./model-metrics";

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
