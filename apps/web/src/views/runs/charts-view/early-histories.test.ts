import type { Run, RunKeys } from "@tracker-ml/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { searchStateOf } from "../../../url/search-state";
import { expectedCardBoxes, firstScreenHistories, prefetchFirstScreen, takeEarlyHistories } from "./early-histories";
import { readCards } from "./card-spec";

const runs: Run[] = Array.from({ length: 100 }, (_, i) => ({
  info: { run_id: `r${i}` } as Run["info"],
  data: { metrics: [], params: [], tags: [] },
}));
const keys = ["m3", "m1", "m0", "m2", "m7", "m5", "m4", "m6"];
const state = (query: string) => searchStateOf(new URLSearchParams(query));
const desktop = { width: 1280, height: 900 };
const runKeys: RunKeys = { metric_keys: keys, param_keys: [], tag_keys: [], truncated: false };

describe("the charts view's first screen", () => {
  it("expects the cards in two columns of 475 px at 1280 px, rows of 278 px, an enlarged card on a row of its own", () => {
    // Measured in Chromium (1280 x 900): cards 475 px wide, tops 271, 549, 827, 1105.
    const boxes = expectedCardBoxes(readCards(undefined, keys), desktop);
    expect(boxes.map((b) => Math.round(b.width))).toEqual(Array(8).fill(475));
    expect(boxes.map((b) => b.top)).toEqual([260, 260, 538, 538, 816, 816, 1094, 1094]);
    const wide = expectedCardBoxes(readCards(["line:metrics.a", "line*:metrics.b", "line:metrics.c"], []), desktop);
    expect(wide.map((b) => [b.top, Math.round(b.width)])).toEqual([
      [260, 475],
      [538, 978],
      [936, 475],
    ]);
    // 390 px: one column under the run list.
    expect(expectedCardBoxes(readCards(undefined, ["a", "b"]), { width: 390, height: 844 })).toEqual([
      { top: 660, width: 356 },
      { top: 938, width: 356 },
    ]);
  });

  it("asks for the line cards on screen (default cards: one per metric key, sorted), the listed runs, points per run by width", () => {
    const wanted = firstScreenHistories(state("e=1&tab=charts&top=100"), runs, keys, desktop);
    expect(wanted.map((w) => w.metricKey)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
    expect(wanted.every((w) => w.runIds.length === 100 && w.runIds[0] === "r0" && w.perRun === 50)).toBe(true);
    // The default limit (10 runs) with a pinned run first, a hidden one, and only line cards.
    const [first, ...others] = firstScreenHistories(
      state("e=1&tab=charts&pin=r50&hide=r1&cards=bar:metrics.m0,line:metrics.m1,scatter:metrics.m0:metrics.m1"),
      runs,
      keys,
      desktop,
    );
    expect(others).toEqual([]);
    expect(first!.metricKey).toBe("m1");
    expect(first!.runIds).toEqual(["r50", ...runs.slice(0, 10).map((r) => r.info.run_id)]);
    expect(first!.perRun).toBe(454);
    expect(firstScreenHistories(state("e=1&tab=charts"), [], keys, desktop)).toEqual([]);
  });
});

describe("early histories", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A fetch stub answering every history request with one point per run, counting them. */
  function stubHistories() {
    const sent: URL[] = [];
    vi.stubGlobal("fetch", async (request: Request) => {
      const url = new URL(request.url);
      sent.push(url);
      const metrics = url.searchParams
        .getAll("run_ids")
        .map((id) => ({ run_id: id, key: url.searchParams.get("metric_key"), value: 1, step: 0, timestamp: 0 }));
      return Response.json({ metrics });
    });
    return sent;
  }

  it("sends the first screen's requests once the runs and keys are in; a card takes its answer once, if it has the points it needs", async () => {
    const sent = stubHistories();
    const ids = runs.map((r) => r.info.run_id);
    prefetchFirstScreen(state("e=1&tab=charts&top=100"), Promise.resolve(runs), Promise.resolve(runKeys), desktop);
    // More points than were asked for: no early answer.
    expect(await takeEarlyHistories("m0", ids, 60)).toBeUndefined();
    expect(sent.map((u) => u.searchParams.get("metric_key"))).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
    expect(sent.every((u) => u.searchParams.get("max_results") === "50")).toBe(true);
    const answer = await takeEarlyHistories("m0", ids, 50);
    expect(answer?.get("r7")).toEqual([{ runId: "r7", key: "m0", value: 1, step: 0, timestamp: 0 }]);
    // Taken once; another metric or other runs have none.
    expect(await takeEarlyHistories("m0", ids, 50)).toBeUndefined();
    expect(await takeEarlyHistories("m1", ids.slice(1), 50)).toBeUndefined();
    expect(await takeEarlyHistories("m7", ids, 50)).toBeUndefined();
    expect(sent).toHaveLength(6);
  });

  it("a failed search leaves no early answers", async () => {
    const sent = stubHistories();
    prefetchFirstScreen(state("e=1&tab=charts"), Promise.reject(new Error("down")), Promise.resolve(runKeys), desktop);
    expect(await takeEarlyHistories("m0", ["r0"], 50)).toBeUndefined();
    expect(sent).toEqual([]);
  });
});
