import type { Knex } from "knex";
import type { KeyValue } from "../../domain/records.js";
import type { RegisteredModelRecord } from "../../domain/registry-records.js";
import { groupBy } from "../rows.js";
import { aliasesOf } from "./aliases.js";
import { latestVersionsOf } from "./model-versions.js";
import { toRegisteredModel, type RegisteredModelRow } from "./rows.js";

/** SQL for registered models and their tags. */

export async function insertRegisteredModel(
  db: Knex,
  row: Omit<RegisteredModelRow, "next_version">,
  tags: KeyValue[],
): Promise<void> {
  await db("registered_models").insert(row);
  // A key given twice keeps its last value (a plain insert would break the primary key).
  const unique = [...new Map(tags.map((t) => [t.key, t])).values()];
  if (unique.length > 0)
    await db("registered_model_tags").insert(unique.map((t) => ({ name: row.name, key: t.key, value: t.value })));
}

export async function findRegisteredModelRow(
  db: Knex,
  name: string,
  forUpdate = false,
): Promise<RegisteredModelRow | undefined> {
  const query = db<RegisteredModelRow>("registered_models").where({ name }).first();
  return (await (forUpdate ? query.forUpdate() : query)) as RegisteredModelRow | undefined;
}

/** Updates one model (locking its row); false when it does not exist. */
export async function updateRegisteredModelRow(
  db: Knex,
  name: string,
  changes: Partial<RegisteredModelRow>,
): Promise<boolean> {
  const rows = await db("registered_models").where({ name }).update(changes).returning("name");
  return rows.length > 0;
}

/** Deletes a model; its versions and all tags go with it (ON DELETE CASCADE). */
export async function deleteRegisteredModelRow(db: Knex, name: string): Promise<boolean> {
  const rows = await db("registered_models").where({ name }).delete().returning("name");
  return rows.length > 0;
}

/** Moves the last_updated_timestamp of every version of a model (after a rename). */
export async function touchVersionsOf(db: Knex, name: string, now: number): Promise<void> {
  await db("model_versions").where({ name }).update({ last_updated_timestamp: now });
}

export async function upsertRegisteredModelTag(db: Knex, name: string, tag: KeyValue): Promise<void> {
  await db("registered_model_tags")
    .insert({ name, key: tag.key, value: tag.value })
    .onConflict(["name", "key"])
    .merge(["value"]);
}

/** Deletes the tag with exactly this key; the number of tags deleted (0 or 1). */
export async function deleteRegisteredModelTag(db: Knex, name: string, key: string): Promise<number> {
  const rows = await db("registered_model_tags").where({ name, key }).delete().returning("key");
  return rows.length;
}

/** Records of the given model rows, in their order, with tags and latest versions per stage. */
export async function withModelDetails(
  db: Knex,
  rows: readonly RegisteredModelRow[],
): Promise<RegisteredModelRecord[]> {
  if (rows.length === 0) return [];
  const names = rows.map((r) => r.name);
  const tagRows = (await db("registered_model_tags")
    .select("name", "key", "value")
    .whereIn("name", names)
    .orderByRaw(`key COLLATE "C"`)) as Array<{ name: string; key: string; value: string }>;
  const tags = groupBy(tagRows, (r) => r.name);
  const latest = await latestVersionsOf(db, names);
  const aliases = await aliasesOf(db, names);
  return rows.map((row) =>
    toRegisteredModel(row, tags.get(row.name) ?? [], latest.get(row.name) ?? [], aliases.get(row.name) ?? []),
  );
}

export async function loadRegisteredModel(db: Knex, name: string): Promise<RegisteredModelRecord | undefined> {
  const row = await findRegisteredModelRow(db, name);
  if (!row) return undefined;
  const [record] = await withModelDetails(db, [row]);
  return record;
}
