import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { MetricRecord } from "../domain/records.js";
import { testDatabases, trackingApi, useTestServer } from "@tracker/testing";
import { insertMetrics, metricHistoryPages } from "./runs.js";

/**
 * insertMetrics folds each batch into latest_metrics in SQL; this checks it against a model of the
 * rules: revision C's value is the latest timestamp, ties by the larger value (NaN largest), exact
 * ties keep the earlier one; revisions A/B's value is the last one logged; a point logged again is
 * skipped.
 */

const valueOrder = (v: number) => (Number.isNaN(v) ? Infinity : v);
function later(a: MetricRecord, b: MetricRecord): boolean {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp;
  if (Number.isNaN(a.value) || Number.isNaN(b.value)) return Number.isNaN(a.value) && !Number.isNaN(b.value);
  return valueOrder(a.value) > valueOrder(b.value);
}

/** The points as stored: the first of each (key, timestamp, step, value), NaN equal to NaN, -0 to 0. */
function stored(metrics: MetricRecord[]): MetricRecord[] {
  const seen = new Set<string>();
  return metrics.filter((m) => {
    const id = JSON.stringify([m.key, m.timestamp, m.step, String(m.value)]); // String(-0) is "0"
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function model(batches: MetricRecord[][]) {
  const latest = new Map<string, MetricRecord>();
  const last = new Map<string, MetricRecord>();
  for (const m of stored(batches.flat())) {
    const seen = latest.get(m.key);
    if (!seen || later(m, seen)) latest.set(m.key, m);
    last.set(m.key, m);
  }
  return [...latest.keys()].sort().map((key) => ({ key, latest: latest.get(key)!, last: last.get(key)! }));
}

// Few keys, timestamps and values, so that ties (same timestamp, same value, other step) are common.
const metric = fc.record({
  key: fc.constantFrom("a", "b", "c"),
  value: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(0, 1, 2.5, NaN, Infinity, -Infinity) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  ),
  timestamp: fc.integer({ min: 1, max: 3 }),
  step: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 1_000_000 })),
});

describe.each(testDatabases())("insertMetrics on %s", (kind) => {
  const suite = useTestServer(kind);
  let experimentId: string;
  beforeAll(async () => {
    experimentId = (
      await trackingApi(suite.url).post<{ experiment_id: string }>("experiments/create", { name: "insert-metrics" })
    ).body.experiment_id;
  });

  it("keeps latest_metrics as the rules say, for any sequence of batches", async () => {
    const api = trackingApi(suite.url);
    const knex = suite.server.database.knex;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(metric, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          const runId = (
            await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId })
          ).body.run.info.run_id;
          for (const batch of batches) await knex.transaction((trx) => insertMetrics(trx, runId, batch));
          const rows = await knex("latest_metrics").where({ run_uuid: runId }).orderBy("key");
          const got = rows.map((r: Record<string, unknown>) => ({
            key: r.key,
            latest: { value: Number(r.value), timestamp: Number(r.timestamp), step: Number(r.step) },
            last: { value: Number(r.last_value), timestamp: Number(r.last_timestamp), step: Number(r.last_step) },
          }));
          const expected = model(batches).map(({ key, latest, last }) => ({
            key,
            latest: { value: latest.value, timestamp: latest.timestamp, step: latest.step },
            last: { value: last.value, timestamp: last.timestamp, step: last.step },
          }));
          expect(got).toEqual(expected);
          const history: MetricRecord[] = [];
          for (const key of ["a", "b", "c"])
            for await (const page of metricHistoryPages(knex, runId, key, 5)) history.push(...page);
          // A point already stored (same key, timestamp, step and value) is stored once.
          expect(history).toHaveLength(stored(batches.flat()).length);
        },
      ),
      {
        numRuns: kind === "pglite" ? 25 : 50,
        // Found by this property on PostgreSQL: -0 was sent to the database as "0" (the driver's String(n)).
        examples: [
          [
            [
              [
                { key: "a", value: -0, timestamp: 1, step: 0 },
                { key: "a", value: 0, timestamp: 1, step: 0 },
              ],
              [{ key: "a", value: 0, timestamp: 1, step: 0 }],
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
