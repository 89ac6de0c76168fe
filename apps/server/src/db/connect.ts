import fs from "node:fs";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";
import { migrationSource } from "./migrations/index.js";

export type DatabaseKind = "postgres" | "pglite";

export interface Database {
  knex: Knex;
  kind: DatabaseKind;
  close(): Promise<void>;
}

// int8 and numeric counts come back as strings from pg; the ids and timestamps we store are
// all within the safe integer range, so parse them as numbers (PGlite already does).
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export interface ConnectOptions {
  databaseUrl?: string;
  /** Folder of the embedded database (PGlite) when no databaseUrl is given. */
  pgliteDir?: string;
  /** Connection pool size for PostgreSQL. */
  poolMax?: number;
}

/** Opens the database selected by the options: PostgreSQL for a URL, else embedded PGlite. */
export function connectDatabase(options: ConnectOptions): Database {
  if (options.databaseUrl) {
    const knex = knexFactory({
      client: "pg",
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
    return { knex, kind: "postgres", close: () => knex.destroy() };
  }
  if (!options.pgliteDir) throw new Error("connectDatabase: pgliteDir is required without databaseUrl");
  fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: "postgres",
    connection: { filename: options.pgliteDir },
    useNullAsDefault: true,
  } as Knex.Config);
  return { knex, kind: "pglite", close: () => knex.destroy() };
}

/** Applies every pending migration. */
export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource });
}
