import type { Knex } from "knex";
import type { ExperimentRecord, KeyValue } from "../core/model.js";
import { toExperiment, type ExperimentRow } from "./rows.js";

/** SQL for experiments and their tags. */

export async function nextExperimentId(db: Knex): Promise<number> {
  const result = await db.raw<{ rows: Array<{ id: number | string }> }>("SELECT nextval('experiments_id_seq') AS id");
  return Number(result.rows[0].id);
}

export async function insertExperiment(db: Knex, row: ExperimentRow, tags: KeyValue[]): Promise<void> {
  await db("experiments").insert(row);
  if (tags.length > 0) {
    // A key given twice keeps its last value (one statement cannot upsert a row twice).
    const unique = [...new Map(tags.map((t) => [t.key, t])).values()];
    await db("experiment_tags")
      .insert(unique.map((t) => ({ experiment_id: row.experiment_id, key: t.key, value: t.value })))
      .onConflict(["experiment_id", "key"])
      .merge();
  }
}

/**
 * Loads experiments with their tags, in the order of `ids`, in one statement: each experiment row
 * carries its tags as a JSON array ordered by key.
 */
export async function loadExperiments(db: Knex, ids: number[]): Promise<ExperimentRecord[]> {
  if (ids.length === 0) return [];
  const result = await db.raw(
    `SELECT e.*,
       (SELECT COALESCE(json_agg(json_build_array(t.key, t.value) ORDER BY t.key), '[]') FROM experiment_tags t WHERE t.experiment_id = e.experiment_id) AS tags
     FROM experiments e WHERE e.experiment_id IN (${ids.map(() => "?").join(", ")})`,
    ids,
  );
  const rows = result.rows as Array<ExperimentRow & { tags: Array<[string, string]> }>;
  const byId = new Map(rows.map((r) => [Number(r.experiment_id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toExperiment(row, row.tags.map(([key, value]) => ({ key, value })))] : [];
  });
}

export async function findExperimentRow(db: Knex, id: number, forUpdate = false): Promise<ExperimentRow | undefined> {
  const query = db<ExperimentRow>("experiments").where({ experiment_id: id }).first();
  return forUpdate ? query.forUpdate() : query;
}

/** The active experiment with that name, else the most recently updated deleted one. */
export async function findExperimentIdByName(db: Knex, name: string): Promise<number | undefined> {
  const row = await db("experiments")
    .select("experiment_id")
    .where({ name })
    .orderByRaw("(lifecycle_stage = 'active') DESC, last_update_time DESC, experiment_id DESC")
    .first();
  return row ? Number(row.experiment_id) : undefined;
}

export async function updateExperimentRow(db: Knex, id: number, changes: Partial<ExperimentRow>): Promise<void> {
  await db("experiments").where({ experiment_id: id }).update(changes);
}

export async function upsertExperimentTag(db: Knex, id: number, tag: KeyValue): Promise<void> {
  await db("experiment_tags").insert({ experiment_id: id, key: tag.key, value: tag.value }).onConflict(["experiment_id", "key"]).merge();
}

/** Marks the active runs of an experiment deleted along with it, or restores exactly those. */
export async function setRunsDeletedWithExperiment(db: Knex, id: number, deleted: boolean, now: number): Promise<void> {
  if (deleted) {
    await db("runs")
      .where({ experiment_id: id, lifecycle_stage: "active" })
      .update({ lifecycle_stage: "deleted", deleted_time: now, deleted_with_experiment: true });
  } else {
    await db("runs")
      .where({ experiment_id: id, deleted_with_experiment: true })
      .update({ lifecycle_stage: "active", deleted_time: null, deleted_with_experiment: false });
  }
}
