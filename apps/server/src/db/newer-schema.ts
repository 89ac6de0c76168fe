import type { Knex } from "knex";
import { migrationNames } from "./migrations/index.js";

/** knex's default table of applied migrations. */
const MIGRATIONS_TABLE = "knex_migrations";

/**
 * A database migrated by a newer build than this one: it holds migrations this build does not
 * know, so this build cannot tell whether its statements still fit the schema. knex would refuse
 * it too ("the migration directory is corrupt"); this says what happened and what to do.
 */
export class NewerSchemaError extends Error {
  constructor(readonly unknown: readonly string[]) {
    const known = migrationNames.at(-1) ?? "none";
    super(
      `the database was migrated by a newer tracker: ${unknown.length === 1 ? "migration" : "migrations"} ` +
        `${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not known to this build (its last is ${known}). ` +
        "Run a tracker at least as new as the one that migrated the database (see docs/deploy.md, Upgrading).",
    );
    this.name = "NewerSchemaError";
  }
}

/** The migrations recorded as applied in the database that this build does not know, in order. */
export async function unknownAppliedMigrations(knex: Knex): Promise<string[]> {
  if (!(await knex.schema.hasTable(MIGRATIONS_TABLE))) return [];
  const rows: Array<{ name: string }> = await knex(MIGRATIONS_TABLE).select("name").orderBy("id");
  const known = new Set(migrationNames);
  return rows.map((row) => row.name).filter((name) => !known.has(name));
}

/** Throws NewerSchemaError when the database holds migrations this build does not know. */
export async function refuseNewerSchema(knex: Knex): Promise<void> {
  const unknown = await unknownAppliedMigrations(knex);
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
}
