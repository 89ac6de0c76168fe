import type { Knex } from "knex";
import { byStep, byValue, byValueDesc, fromByStep, fromByValue, fromByValueDesc } from "../rollup-arrays.js";

/**
 * A fifth level of metric_rollups (store/metric-rollups.ts): level 4, blocks of 64 steps
 * (block = step >> 6), between the 16-step blocks of level 0 and the 256-step blocks of level 1.
 * A chart of 100 runs asks about 50 points a run (12 buckets of ~80 steps over 1,000 steps), which
 * level 0 answers from 63 blocks a run and level 4 from 16.
 *
 * insertMetrics keeps the new level up to date like the others (its upsert covers every level of
 * ROLLUP_LEVELS). Existing points are rolled up here by folding each run's level-0 blocks, four
 * to a level-4 block: counts add up, the smallest first and largest last point win, the lowest
 * minimum and highest maximum (ties to the earlier (step, timestamp); NULL when every point is
 * NaN), which is what rolling up the points themselves gives.
 */
const COLUMNS = ["first", "last", "min", "max"].flatMap((c) => [`${c}_step`, `${c}_timestamp`, `${c}_value`]);
const point = (c: string) => [`${c}_step`, `${c}_timestamp`, `${c}_value`] as const;

const BACKFILL = `
  INSERT INTO metric_rollups (run_uuid, key, level, block, n, ${COLUMNS.join(", ")})
  SELECT run_uuid, key, 4, block, n, ${[...fromByStep("first"), ...fromByStep("last"), ...fromByValue("low"), ...fromByValueDesc("high")].join(", ")}
    FROM (
      SELECT run_uuid, key, block >> 2 AS block, sum(n) AS n,
             min(${byStep(...point("first"))}) AS first,
             max(${byStep(...point("last"))}) AS last,
             min(${byValue(...point("min"))}) FILTER (WHERE min_value IS NOT NULL) AS low,
             max(${byValueDesc(...point("max"))}) FILTER (WHERE max_value IS NOT NULL) AS high
        FROM metric_rollups
       WHERE level = 0
       GROUP BY run_uuid, key, block >> 2
    ) AS folded`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(BACKFILL);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM metric_rollups WHERE level = 4");
}
