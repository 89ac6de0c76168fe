import pg from "pg";

/**
 * Key of the PostgreSQL advisory lock that serialises migrations between server processes (any
 * 64-bit number that no other application on the same database uses; "tracker" in ASCII, 0x747261636b6572).
 */
export const MIGRATION_LOCK_KEY = "32776859903812978";

/**
 * Runs `migrate` while holding a session-level advisory lock on the database of `url`, so that
 * several servers starting at once over one empty database migrate it one after the other: the
 * first applies the migrations, the others wait and then find nothing pending. knex's own lock
 * table cannot do this: creating `knex_migrations` itself races (two servers both see no table),
 * and a server that finds the lock taken fails ("Migration table is already locked") instead of
 * waiting. The lock lives on a connection of its own, so a process that dies while holding it
 * frees it with its connection.
 */
export async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
  await client.connect();
  try {
    // No statement timeout here: another server's migration may rewrite whole tables.
    await client.query("SET statement_timeout = 0");
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`);
    try {
      return await migrate();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`);
    }
  } finally {
    await client.end();
  }
}
