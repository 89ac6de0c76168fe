import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { fitLabel, niceTicks, plotAxis, tickLabel } from "./plot-axes";

const run = (id: string, params: Record<string, string>, metrics: Record<string, number>) =>
  ({
    info: { run_id: id },
    data: {
      params: Object.entries(params).map(([key, value]) => ({ key, value })),
      metrics: Object.entries(metrics).map(([key, value]) => ({ key, value, step: 0, timestamp: 0 })),
      tags: [],
    },
  }) as unknown as Run;

describe("plot axes", () => {
  const runs = [
    run("a", { model: "mlp", lr: "0.1" }, { acc: 0.7 }),
    run("b", { model: "tree", lr: "0.01" }, { acc: 0.9 }),
    run("c", { model: "mlp", lr: "0.001" }, {}),
  ];

  it("round ticks inside the range", () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.71, 0.93)).toEqual([0.75, 0.8, 0.85, 0.9]);
    expect(niceTicks(3, 3)).toEqual([3]);
    expect(niceTicks(Number.NaN, 1)).toEqual([]);
  });

  it("short tick labels", () => {
    expect(tickLabel(0.30000000000000004)).toBe("0.3");
    expect(tickLabel(120000)).toBe("1.2e+5");
    expect(tickLabel(-0.00081)).toBe("-8.1e-4");
  });

  it("a string param is a categorical axis, a numeric one numeric", () => {
    const model = plotAxis(runs, "params.model");
    expect(model.kind).toBe("category");
    expect(model.ticks.map((t) => t.label)).toEqual(["mlp", "tree"]);
    expect(runs.map((r) => model.position(r))).toEqual([0, 1, 0]);
    const acc = plotAxis(runs, "metrics.acc");
    expect(acc.kind).toBe("number");
    expect(acc.position(runs[0]!)).toBe(0);
    expect(acc.position(runs[1]!)).toBeCloseTo(1);
    expect(acc.position(runs[2]!)).toBeUndefined();
    expect(acc.ticks.length).toBeGreaterThan(2);
  });

  it("cuts long labels with an ellipsis", () => {
    expect(fitLabel("metrics.val_loss", 8)).toBe("metrics…");
    expect(fitLabel("lr", 8)).toBe("lr");
  });
});
