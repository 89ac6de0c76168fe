import { describe, expect, it } from "vitest";
import { testDatabases, useExperimentSuite } from "@tracker/testing";
import { down, up } from "./0014_metric_rollups_64.js";

/** 0014's backfill folds level 0 into level 4 exactly as the writer rolls up the points themselves. */
describe.each(testDatabases())("0014_metric_rollups_64 on %s", (kind) => {
  const suite = useExperimentSuite(kind, "rollups-64");

  it("backfills level 4 with the rows the writer keeps, and takes them away again", async () => {
    const db = suite.server.database.knex;
    const runId = await suite.newRun();
    // Dense steps with ties on value, a block of NaN only, negative and sparse steps, 2^40 steps.
    const values = [3, 1, 1, Number.NaN, 7, -2, 7, 0.5];
    const metrics = [
      ...Array.from({ length: 500 }, (_, i) => ({ key: "a", value: values[i % 8]!, timestamp: 1000 - i, step: i })),
      ...Array.from({ length: 40 }, (_, i) => ({ key: "a", value: Number.NaN, timestamp: i, step: 6400 + i })),
      ...Array.from({ length: 300 }, (_, i) => ({
        key: "b",
        value: (i * 37) % 11,
        timestamp: i % 3,
        step: (i - 150) * 7 + (i % 2 === 0 ? 0 : 2 ** 40),
      })),
    ].map((m) => ({ ...m, value: Number.isNaN(m.value) ? "NaN" : m.value }));
    await suite.ok("runs/log-batch", { run_id: runId, metrics });
    const levelFour = () =>
      db("metric_rollups").where({ run_uuid: runId, level: 4 }).orderBy(["key", "block"]).select("*");
    const written = await levelFour();
    // 500 steps and 40 more in 64-step blocks: 8 + 1 of key a; b spreads over 2 ranges of steps.
    expect(written.filter((r) => r.key === "a")).toHaveLength(9);
    expect(written.find((r) => r.key === "a" && Number(r.block) === 100)).toMatchObject({ min_value: null });

    await down(db);
    expect(await levelFour()).toEqual([]);
    await up(db);
    expect(await levelFour()).toEqual(written);
  });
});
