import type { Knex } from "knex";
import type { ModelAlias } from "../../domain/registry-records.js";

/** SQL for model aliases (table registered_model_aliases, db/migrations/0004_aliases_datasets.ts). */

/** Points `alias` of model `name` at `version`, replacing the version it named before. */
export async function upsertAlias(db: Knex, name: string, alias: string, version: number): Promise<void> {
  await db("registered_model_aliases")
    .insert({ name, alias, version })
    .onConflict(["name", "alias"])
    .merge(["version"]);
}

/** Deletes one alias; the number of aliases deleted (0 or 1). */
export async function deleteAlias(db: Knex, name: string, alias: string): Promise<number> {
  const rows = await db("registered_model_aliases").where({ name, alias }).delete().returning("alias");
  return rows.length;
}

/** The version an alias names, if the alias exists. */
export async function findAliasVersion(db: Knex, name: string, alias: string): Promise<number | undefined> {
  const row = (await db("registered_model_aliases").select("version").where({ name, alias }).first()) as
    | { version: number }
    | undefined;
  return row === undefined ? undefined : Number(row.version);
}

/** The aliases of the given models, by model name, each list ordered by alias. */
export async function aliasesOf(db: Knex, names: readonly string[]): Promise<Map<string, ModelAlias[]>> {
  const out = new Map<string, ModelAlias[]>();
  if (names.length === 0) return out;
  const rows = (await db("registered_model_aliases")
    .select("name", "alias", "version")
    .whereIn("name", [...new Set(names)])
    .orderByRaw(`alias COLLATE "C"`)) as Array<{ name: string; alias: string; version: number }>;
  for (const row of rows) {
    const list = out.get(row.name) ?? [];
    list.push({ alias: row.alias, version: Number(row.version) });
    out.set(row.name, list);
  }
  return out;
}

/** The alias names of one version among a model's aliases. */
export const aliasNamesOf = (aliases: readonly ModelAlias[] | undefined, version: number): string[] =>
  (aliases ?? []).filter((a) => a.version === version).map((a) => a.alias);
