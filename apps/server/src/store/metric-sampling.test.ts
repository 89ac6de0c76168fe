import { describe, expect, it } from "vitest";
import { testDatabases, useExperimentSuite } from "@tracker/testing";
import { ROLLUP_LEVELS, blockSteps, chooseLevel, coveredBlocks, levelShift } from "./metric-rollups.js";
import { sampleMetricHistories, sampleMetricHistoriesJson } from "./metric-sampling.js";

/** A stored point, exact: steps and timestamps as bigints. */
interface Point {
  step: bigint;
  timestamp: bigint;
  value: number;
}

/** float8's order: NaN above every number (and equal to NaN). */
const cmpValue = (a: number, b: number) =>
  Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a < b ? -1 : a > b ? 1 : 0;
const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const byStep = (a: Point, b: Point) =>
  cmpBig(a.step, b.step) || cmpBig(a.timestamp, b.timestamp) || cmpValue(a.value, b.value);
const byValue = (a: Point, b: Point) =>
  cmpValue(a.value, b.value) || cmpBig(a.step, b.step) || cmpBig(a.timestamp, b.timestamp);
const byValueDesc = (a: Point, b: Point) =>
  -cmpValue(a.value, b.value) || cmpBig(a.step, b.step) || cmpBig(a.timestamp, b.timestamp);
const least = (points: Point[], cmp: (a: Point, b: Point) => number) =>
  points.reduce<Point | undefined>((best, p) => (best === undefined || cmp(p, best) < 0 ? p : best), undefined);
/** Equal under byStep (NaN equal to NaN) gives an equal key. */
const pointKey = (p: Point) => `${p.step}/${p.timestamp}/${p.value}`;

interface Rollup {
  level: number;
  block: bigint;
  n: number;
  first: Point;
  last: Point;
  min?: Point;
  max?: Point;
}

/** What metric_rollups must hold for one history, computed from scratch. */
function bruteRollups(points: Point[]): Rollup[] {
  const out: Rollup[] = [];
  for (const { level, shift } of ROLLUP_LEVELS) {
    const blocks = new Map<bigint, Point[]>();
    for (const p of points) {
      const block = p.step >> BigInt(shift);
      const members = blocks.get(block);
      if (members) members.push(p);
      else blocks.set(block, [p]);
    }
    for (const [block, members] of blocks) {
      const numbers = members.filter((p) => !Number.isNaN(p.value));
      out.push({
        level,
        block,
        n: members.length,
        first: least(members, byStep)!,
        last: least(members, (a, b) => -byStep(a, b))!,
        min: least(numbers, byValue),
        max: least(numbers, byValueDesc),
      });
    }
  }
  return out.sort((a, b) => a.level - b.level || cmpBig(a.block, b.block));
}

/**
 * The sampler's contract, brute force over a whole history: whole when it has at most maxResults
 * points in range; otherwise floor(maxResults / 4) buckets over first..last step, blocks of the
 * chosen level wholly inside the range going to the bucket of their first step, other points by
 * their own; per bucket first, last, highest, lowest; merged, capped by preference.
 */
function bruteSample(all: Point[], start: bigint, end: bigint, maxResults: number): Point[] {
  const points = all.filter((p) => p.step >= start && p.step <= end);
  if (points.length <= maxResults) return [...points].sort(byStep);
  const buckets = Math.max(1, Math.floor(maxResults / 4));
  // biome-ignore lint/complexity/useMathMinMax: steps are bigints, which Math.min does not take
  const lo = points.reduce((m, p) => (p.step < m ? p.step : m), points[0]!.step);
  // biome-ignore lint/complexity/useMathMinMax: steps are bigints, which Math.max does not take
  const hi = points.reduce((m, p) => (p.step > m ? p.step : m), points[0]!.step);
  const level = chooseLevel(lo, hi, buckets);
  const shift = level < 0 ? 0 : levelShift(level);
  const covered = level < 0 ? undefined : coveredBlocks(shift, start, end);
  const firstOfBlock = new Map<bigint, bigint>();
  for (const p of points) {
    const block = p.step >> BigInt(shift);
    if (covered && block >= covered.from && block <= covered.to && (firstOfBlock.get(block) ?? p.step) >= p.step)
      firstOfBlock.set(block, p.step);
  }
  const groups = new Map<bigint, Point[]>();
  for (const p of points) {
    const at = firstOfBlock.get(p.step >> BigInt(shift)) ?? p.step;
    const bucket = ((at - lo) * BigInt(buckets)) / (hi - lo + 1n);
    const members = groups.get(bucket);
    if (members) members.push(p);
    else groups.set(bucket, [p]);
  }
  // Keyed by (step, timestamp, value): a point picked twice keeps its best preference.
  const picked = new Map<string, { point: Point; preference: number }>();
  for (const members of groups.values()) {
    const numbers = members.filter((p) => !Number.isNaN(p.value));
    const candidates = [
      least(members, byStep),
      least(members, (a, b) => -byStep(a, b)),
      least(numbers, byValueDesc),
      least(numbers, byValue),
    ];
    candidates.forEach((point, i) => {
      if (point === undefined) return;
      const key = pointKey(point);
      const seen = picked.get(key);
      if (seen) seen.preference = Math.min(seen.preference, i + 1);
      else picked.set(key, { point, preference: i + 1 });
    });
  }
  return [...picked.values()]
    .sort(
      (a, b) =>
        a.preference - b.preference ||
        cmpBig(a.point.step, b.point.step) ||
        cmpBig(a.point.timestamp, b.point.timestamp),
    )
    .slice(0, maxResults)
    .map((p) => p.point)
    .sort(byStep);
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wireValue = (v: number) =>
  Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : v;

describe.each(testDatabases())("metric rollups and sampling on %s", (kind) => {
  const suite = useExperimentSuite(kind, "rollups");
  const { api, newRun, ok: post } = suite;
  const wire = (key: string, p: Point) => ({
    key,
    value: wireValue(p.value),
    timestamp: p.timestamp.toString(),
    step: p.step.toString(),
  });
  /** Logs points in random order: batches of up to 1000 (several keys), some one by one, some twice. */
  const log = async (runId: string, byKey: Record<string, Point[]>, rnd: () => number) => {
    const all = Object.entries(byKey).flatMap(([key, points]) => points.map((p) => ({ key, p })));
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    for (let i = 0; i < all.length; ) {
      if (rnd() < 0.1) {
        const { key, p } = all[i++]!;
        await post("runs/log-metric", { run_id: runId, ...wire(key, p) });
        continue;
      }
      const size = 1 + Math.floor(rnd() * 1000);
      const batch = all.slice(i, i + size);
      i += size;
      // Some points of earlier batches again, and some twice within the batch: stored once.
      const again = all
        .slice(0, i)
        .filter(() => rnd() < 0.02)
        .slice(0, 1000 - batch.length);
      await post("runs/log-batch", {
        run_id: runId,
        metrics: [...batch, ...again].slice(0, 1000).map(({ key, p }) => wire(key, p)),
      });
    }
  };
  const stored = async (runId: string, key: string): Promise<Point[]> => {
    const rows = await suite.server.database.knex.raw(
      `SELECT step::text AS step, timestamp::text AS timestamp, value::text AS value FROM metrics WHERE run_uuid = ? AND key = ?`,
      [runId, key],
    );
    return (rows.rows as Array<Record<string, string>>).map((r) => ({
      step: BigInt(r.step!),
      timestamp: BigInt(r.timestamp!),
      value: Number(r.value),
    }));
  };
  const rollups = async (runId: string, key: string): Promise<Rollup[]> => {
    const cols = ["first", "last", "min", "max"].flatMap((c) => [
      `${c}_step::text AS ${c}_step`,
      `${c}_timestamp::text AS ${c}_timestamp`,
      `${c}_value::text AS ${c}_value`,
    ]);
    const rows = await suite.server.database.knex.raw(
      `SELECT level, block::text AS block, n::text AS n, ${cols.join(", ")} FROM metric_rollups WHERE run_uuid = ? AND key = ?`,
      [runId, key],
    );
    const point = (r: Record<string, string | null>, c: string) =>
      r[`${c}_step`] === null
        ? undefined
        : { step: BigInt(r[`${c}_step`]!), timestamp: BigInt(r[`${c}_timestamp`]!), value: Number(r[`${c}_value`]) };
    return (rows.rows as Array<Record<string, string | null>>)
      .map((r) => ({
        level: Number(r.level),
        block: BigInt(r.block!),
        n: Number(r.n),
        first: point(r, "first")!,
        last: point(r, "last")!,
        min: point(r, "min"),
        max: point(r, "max"),
      }))
      .sort((a, b) => a.level - b.level || cmpBig(a.block, b.block));
  };
  const distinct = (points: Point[]) => [...new Map(points.map((p) => [pointKey(p), p])).values()];

  /** Histories of every shape: dense with spikes, NaN and infinities; sparse negative; huge; tiny; repeated steps. */
  const histories = (rnd: () => number): Record<string, Point[]> => {
    const value = () =>
      rnd() < 0.03
        ? Number.NaN
        : rnd() < 0.01
          ? Infinity
          : rnd() < 0.01
            ? -Infinity
            : rnd() < 0.02
              ? (rnd() - 0.5) * 1e6
              : Math.round(rnd() * 100) / 10;
    const ts = (i: number) => BigInt(1_700_000_000_000 + i);
    return {
      dense: Array.from({ length: 3000 }, (_, i) => ({ step: BigInt(i), timestamp: ts(i), value: value() })),
      sparse: Array.from({ length: 1500 }, (_, i) => ({
        step: BigInt(Math.floor((rnd() - 0.6) * 100_000)),
        timestamp: ts(i),
        value: value(),
      })),
      // The API takes integers up to 2^53 (JSON numbers); beyond 2^26 the rollups split them in two.
      huge: Array.from({ length: 800 }, (_, i) => ({
        step: (rnd() < 0.5 ? -1n : 1n) * (2n ** 52n + BigInt(Math.floor(rnd() * 1e6)) * 2n ** 20n),
        timestamp: 2n ** 52n + BigInt(i) * 1024n,
        value: value(),
      })),
      tiny: [
        { step: 5n, timestamp: 1n, value: 1 },
        { step: -5n, timestamp: 1n, value: Number.NaN },
      ],
      repeated: Array.from({ length: 1200 }, (_, i) => ({
        step: BigInt(Math.floor(i / 3)),
        timestamp: ts(i % 2),
        value: value(),
      })),
    };
  };

  it("keeps metric_rollups equal to a roll-up of the stored points from scratch, through log-metric and log-batch", async () => {
    const rnd = random(42);
    const data = histories(rnd);
    const runId = await newRun();
    await log(runId, data, rnd);
    for (const [key, points] of Object.entries(data)) {
      const history = await stored(runId, key);
      expect(history.length, key).toBe(distinct(points).length);
      expect(await rollups(runId, key), key).toEqual(bruteRollups(history));
    }
  });

  it("answers like the brute-force sampler over random histories, ranges and sizes", async () => {
    const rnd = random(7);
    const data = histories(rnd);
    const runA = await newRun();
    const runB = await newRun();
    await log(runA, data, rnd);
    await log(runB, { dense: data.sparse!, sparse: data.dense! }, rnd);
    const historyOf = new Map<string, Point[]>();
    for (const runId of [runA, runB])
      for (const key of Object.keys(data)) historyOf.set(`${runId}/${key}`, await stored(runId, key));
    const ranges: Array<[number, number] | undefined> = [
      undefined,
      [0, 2999],
      [17, 2100],
      [-70_000, 40_000],
      [1000, 1040],
      [-3, 3],
      [100, 99 + 16 * 25],
      [100, 99 + 16 * 25 - 1],
    ];
    const sizes = [1, 3, 4, 9, 100, 1000, 2500];
    // Every (history, range), (history, size) and (range, size) pair, not every triple: 3 of the 7 sizes
    // per (history, range), rotating. The 280 triples took ~6 s of CPU in queries (PGlite runs in this
    // process), too much to stay under the test timeout on a loaded 2-core machine; these 120 cover each
    // pair at least once.
    const sizesFor = (keyIndex: number, rangeIndex: number) =>
      sizes.filter((_, sizeIndex) => (sizeIndex + keyIndex + rangeIndex) % sizes.length < 3);
    for (const [keyIndex, key] of Object.keys(data).entries()) {
      for (const [rangeIndex, range] of ranges.entries()) {
        for (const maxResults of sizesFor(keyIndex, rangeIndex)) {
          const options = range ? { startStep: range[0], endStep: range[1], maxResults } : { maxResults };
          const got = await sampleMetricHistories(suite.server.database.knex, [runA, runB], key, options);
          for (const runId of [runA, runB]) {
            const expected = bruteSample(
              historyOf.get(`${runId}/${key}`)!,
              range ? BigInt(range[0]) : -(2n ** 63n),
              range ? BigInt(range[1]) : 2n ** 63n - 1n,
              maxResults,
            );
            const actual = got
              .filter((p) => p.runId === runId)
              .map((p) => ({ step: BigInt(p.step), timestamp: BigInt(p.timestamp), value: p.value }));
            // The answer lists by (step, timestamp); equal (step, timestamp) pairs in any value order.
            const label = `${key} ${JSON.stringify(range)} max ${maxResults}`;
            expect(
              actual.map((p) => [p.step, p.timestamp]),
              label,
            ).toEqual(expected.map((p) => [p.step, p.timestamp]));
            expect([...actual].sort(byStep), label).toEqual(expected);
          }
        }
      }
    }
  });

  it("rollups go with their run when the run's rows are removed", async () => {
    const runId = await newRun();
    await post("runs/log-batch", { run_id: runId, metrics: [{ key: "m", value: 1, timestamp: 1, step: 3 }] });
    expect(await rollups(runId, "m")).toHaveLength(ROLLUP_LEVELS.length);
    await post("runs/delete", { run_id: runId });
    // A deleted run takes no more points, so its rollups cannot change...
    expect(
      (await api.post("runs/log-metric", { run_id: runId, key: "m", value: 2, timestamp: 2, step: 4 })).status,
    ).toBe(400);
    expect((await rollups(runId, "m")).map((r) => r.n)).toEqual(ROLLUP_LEVELS.map(() => 1));
    // ...and removing the run (nothing in tracker purges runs yet) removes them with it.
    await suite.server.database.knex("runs").where({ run_uuid: runId }).delete();
    expect(await rollups(runId, "m")).toEqual([]);
  });

  it("writes the same points as JSON text: non-finite values as strings, steps beyond 2^32 exact", async () => {
    const rnd = random(11);
    const data = histories(rnd);
    const odd = [1e-7, 1.5e300, -0, 0.1, 2.5e-8, 123456789.125].map((value, i) => ({
      step: BigInt(i),
      timestamp: 1n,
      value,
    }));
    const runA = await newRun();
    const runB = await newRun();
    await log(runA, { dense: data.dense!, huge: data.huge!, odd }, rnd);
    await log(runB, { dense: data.sparse!, odd }, rnd);
    const knex = suite.server.database.knex;
    // Equal (step, timestamp) pairs come in any value order: compared in one canonical order.
    const canonical = (points: unknown[]) => points.map((p) => JSON.stringify(p)).sort();
    for (const key of ["dense", "huge", "odd", "absent"])
      for (const options of [
        { maxResults: 100 },
        { maxResults: 2500 },
        { startStep: 17, endStep: 2100, maxResults: 9 },
      ]) {
        const points = await sampleMetricHistories(knex, [runA, runB], key, options);
        const text = await sampleMetricHistoriesJson(knex, [runA, runB], key, options);
        const expected = points.map((p) => ({
          key,
          value: wireValue(p.value),
          timestamp: p.timestamp,
          step: p.step,
          run_id: p.runId,
        }));
        const label = `${key} ${JSON.stringify(options)}`;
        const written = JSON.parse(`[${text}]`) as { run_id: string; step: number }[];
        expect(canonical(written), label).toEqual(canonical(expected));
        expect(
          written.map((p) => [p.run_id, p.step]),
          label,
        ).toEqual(expected.map((p) => [p.run_id, p.step]));
      }
    expect(await sampleMetricHistoriesJson(knex, [], "dense", { maxResults: 10 })).toBe("");
  });

  it("counts exactly at block edges: a range ending one step inside a block", async () => {
    const runId = await newRun();
    const points = Array.from({ length: 600 }, (_, i) => ({ key: "e", value: i, timestamp: 1, step: i - 300 }));
    await post("runs/log-batch", { run_id: runId, metrics: points });
    // 257 points in range: whole at max_results 257, sampled at 256.
    expect(
      await sampleMetricHistories(suite.server.database.knex, [runId], "e", {
        startStep: -1,
        endStep: 255,
        maxResults: 257,
      }),
    ).toHaveLength(257);
    const sampled = await sampleMetricHistories(suite.server.database.knex, [runId], "e", {
      startStep: -1,
      endStep: 255,
      maxResults: 256,
    });
    expect(sampled.length).toBeLessThanOrEqual(256);
    expect(sampled[0]!.step).toBe(-1);
    expect(sampled[sampled.length - 1]!.step).toBe(255);
    expect(blockSteps(4, coveredBlocks(4, -1n, 255n)!)).toEqual({ from: 0n, to: 255n });
  });
});
