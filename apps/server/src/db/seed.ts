import type { Knex } from "knex";
import type { TrackerConfig } from "../config/config.js";
import { defaultExperimentLocation } from "../core/artifacts.js";

/** The experiment `Default` with id 0 exists from the first start (MLflow's behaviour). */
export async function ensureDefaultExperiment(knex: Knex, config: TrackerConfig): Promise<void> {
  const now = Date.now();
  await knex.raw(
    `INSERT INTO experiments (experiment_id, name, artifact_location, lifecycle_stage, creation_time, last_update_time)
     VALUES (0, 'Default', ?, 'active', ?, ?) ON CONFLICT DO NOTHING`,
    [defaultExperimentLocation(config, 0), now, now],
  );
}
