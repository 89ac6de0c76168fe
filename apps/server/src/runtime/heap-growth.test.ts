import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { heapGrowthChosenByNode, limitHeapGrowth } from "./heap-growth.js";

describe("heapGrowthChosenByNode", () => {
  it("sees node's own flag, in either spelling, on the command line or in NODE_OPTIONS", () => {
    expect(heapGrowthChosenByNode([], "")).toBe(false);
    expect(heapGrowthChosenByNode(["--max-semi-space-size=8"], "--max-old-space-size=512")).toBe(false);
    expect(heapGrowthChosenByNode(["--heap-growing-percent=30"], "")).toBe(true);
    expect(heapGrowthChosenByNode(["--heap_growing_percent=30"], "")).toBe(true);
    expect(heapGrowthChosenByNode([], "--enable-source-maps --heap-growing-percent=50")).toBe(true);
  });
});

/** The compiled module (`pnpm test` builds first, as for the CLI tests): a plain node child runs it. */
const BUILT_MODULE = new URL("../../dist/runtime/heap-growth.js", import.meta.url);

describe("limitHeapGrowth", () => {
  it("leaves V8's policy for 0 and when node was given its own setting", () => {
    expect(limitHeapGrowth(0, [], "")).toBe("V8's own policy");
    expect(limitHeapGrowth(100, ["--heap-growing-percent=30"], "")).toBe("node's --heap-growing-percent");
  });

  // The setting must take effect at run time (V8 reads it at every full collection): a process that
  // keeps ~40 MiB live while allocating steadily holds a clearly smaller heap with it than without.
  it("bounds the heap a steadily allocating process holds", () => {
    const script = `
      const percent = Number(process.argv[1]);
      const { limitHeapGrowth } = await import(${JSON.stringify(BUILT_MODULE.href)});
      limitHeapGrowth(percent, [], "");
      const live = [];
      let peak = 0;
      for (let i = 0; i < 3000; i++) {
        const batch = [];
        for (let j = 0; j < 2000; j++) batch.push({ j, s: "x" + j, t: [j, j] });
        live.push(batch);
        if (live.length > 40) live.shift();
        if (i % 20 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
      }
      process.stdout.write(String(peak));
    `;
    const peakHeap = (percent: number): number => {
      const run = spawnSync(process.execPath, ["--input-type=module", "-e", script, String(percent)], {
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout);
    };
    const v8Policy = peakHeap(0);
    const bounded = peakHeap(30);
    expect(bounded).toBeLessThan(v8Policy * 0.85);
  }, 120_000);
});
