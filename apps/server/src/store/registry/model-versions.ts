import type { Knex } from "knex";
import type { KeyValue } from "../../domain/records.js";
import { STAGES, type ModelVersionRecord, type Stage } from "../../domain/registry-records.js";
import { aliasesOf, aliasNamesOf } from "./aliases.js";
import { toModelVersion, versionKey, type ModelVersionRow, type ModelVersionTagRow } from "./rows.js";

/** SQL for model versions and their tags. */

/** Pairs per statement when loading tags by (name, version): two bind parameters each. */
const PAIRS_PER_QUERY = 5000;

/**
 * Takes the next version number of a model and moves the model's last_updated_timestamp, in one
 * statement that row-locks the model until the transaction ends; concurrent creates therefore get
 * consecutive numbers. Undefined when the model does not exist.
 */
export async function allocateVersion(db: Knex, name: string, now: number): Promise<number | undefined> {
  const rows = (await db("registered_models")
    .where({ name })
    .update({ next_version: db.raw("next_version + 1"), last_updated_timestamp: now })
    .returning(db.raw("next_version - 1 AS version"))) as Array<{ version: number }>;
  return rows.length === 0 ? undefined : Number(rows[0].version);
}

export async function insertModelVersion(db: Knex, row: ModelVersionRow, tags: KeyValue[]): Promise<void> {
  await db("model_versions").insert(row);
  if (tags.length > 0) {
    // A key given twice keeps its last value (a plain insert would break the primary key).
    const unique = [...new Map(tags.map((t) => [t.key, t])).values()];
    await db("model_version_tags").insert(
      unique.map((t) => ({ name: row.name, version: row.version, key: t.key, value: t.value })),
    );
  }
}

export async function findModelVersionRow(
  db: Knex,
  name: string,
  version: number,
  forUpdate = false,
): Promise<ModelVersionRow | undefined> {
  const query = db<ModelVersionRow>("model_versions").where({ name, version }).first();
  return (await (forUpdate ? query.forUpdate() : query)) as ModelVersionRow | undefined;
}

/** Updates one version (locking its row); false when it does not exist. */
export async function updateModelVersionRow(
  db: Knex,
  name: string,
  version: number,
  changes: Partial<ModelVersionRow>,
): Promise<boolean> {
  const rows = await db("model_versions").where({ name, version }).update(changes).returning("version");
  return rows.length > 0;
}

export async function deleteModelVersionRow(db: Knex, name: string, version: number): Promise<boolean> {
  const rows = await db("model_versions").where({ name, version }).delete().returning("version");
  return rows.length > 0;
}

/** Moves every version of the model in `stage`, except `exceptVersion`, to Archived. */
export async function archiveVersionsInStage(
  db: Knex,
  name: string,
  stage: Stage,
  exceptVersion: number,
  now: number,
): Promise<number> {
  const rows = await db("model_versions")
    .where({ name, current_stage: stage })
    .whereNot({ version: exceptVersion })
    .update({ current_stage: "Archived", last_updated_timestamp: now, last_stage_transition: now })
    .returning("version");
  return rows.length;
}

export async function upsertModelVersionTag(db: Knex, name: string, version: number, tag: KeyValue): Promise<void> {
  await db("model_version_tags")
    .insert({ name, version, key: tag.key, value: tag.value })
    .onConflict(["name", "version", "key"])
    .merge(["value"]);
}

/** Deletes the tag with exactly this key; the number of tags deleted (0 or 1). */
export async function deleteModelVersionTag(db: Knex, name: string, version: number, key: string): Promise<number> {
  const rows = await db("model_version_tags").where({ name, version, key }).delete().returning("key");
  return rows.length;
}

/** Tags of the given versions, by versionKey, each list ordered by key. */
async function loadVersionTags(db: Knex, rows: readonly ModelVersionRow[]): Promise<Map<string, KeyValue[]>> {
  const out = new Map<string, KeyValue[]>();
  for (let i = 0; i < rows.length; i += PAIRS_PER_QUERY) {
    const pairs = rows.slice(i, i + PAIRS_PER_QUERY).map((r) => [r.name, r.version]);
    const tagRows = (await db("model_version_tags")
      .select("name", "version", "key", "value")
      .whereIn(["name", "version"], pairs)
      .orderByRaw(`key COLLATE "C"`)) as ModelVersionTagRow[];
    for (const tag of tagRows) {
      const k = versionKey(tag.name, Number(tag.version));
      const list = out.get(k) ?? [];
      list.push({ key: tag.key, value: tag.value });
      out.set(k, list);
    }
  }
  return out;
}

/** Records of the given rows, in their order, with their tags and aliases. */
export async function withVersionTags(db: Knex, rows: readonly ModelVersionRow[]): Promise<ModelVersionRecord[]> {
  if (rows.length === 0) return [];
  const tags = await loadVersionTags(db, rows);
  const aliases = await aliasesOf(
    db,
    rows.map((r) => r.name),
  );
  return rows.map((row) => {
    const version = Number(row.version);
    return toModelVersion(
      row,
      tags.get(versionKey(row.name, version)) ?? [],
      aliasNamesOf(aliases.get(row.name), version),
    );
  });
}

export async function loadModelVersion(
  db: Knex,
  name: string,
  version: number,
): Promise<ModelVersionRecord | undefined> {
  const row = await findModelVersionRow(db, name, version);
  if (!row) return undefined;
  const [record] = await withVersionTags(db, [row]);
  return record;
}

const stageRank = (stage: Stage) => STAGES.indexOf(stage);

/**
 * For each model, the highest-numbered READY version of each stage (of `stages` when given),
 * listed in the order None, Staging, Production, Archived.
 */
export async function latestVersionsOf(
  db: Knex,
  names: readonly string[],
  stages?: readonly Stage[],
): Promise<Map<string, ModelVersionRecord[]>> {
  const out = new Map<string, ModelVersionRecord[]>();
  if (names.length === 0 || stages?.length === 0) return out;
  const query = db<ModelVersionRow>("model_versions")
    .distinctOn(["name", "current_stage"])
    .select("*")
    .whereIn("name", names as string[])
    .andWhere("status", "READY")
    .orderBy([{ column: "name" }, { column: "current_stage" }, { column: "version", order: "desc" }]);
  if (stages) query.whereIn("current_stage", stages as Stage[]);
  const rows = (await query) as ModelVersionRow[];
  const records = await withVersionTags(db, rows);
  for (const record of records) {
    const list = out.get(record.name) ?? [];
    list.push(record);
    out.set(record.name, list);
  }
  for (const list of out.values()) list.sort((a, b) => stageRank(a.currentStage) - stageRank(b.currentStage));
  return out;
}
