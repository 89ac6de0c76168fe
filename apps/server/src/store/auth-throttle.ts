import type { Knex } from "knex";

/** SQL for the sign-in failure counters (table sign_in_failures, migration 0013). */

/**
 * Counts one failure for `key` in a window of `windowMs` (a new window when the last one is over)
 * and returns the count, in one statement, so concurrent failures on several servers all count.
 */
export async function countFailure(db: Knex, key: string, now: number, windowMs: number): Promise<number> {
  const result = await db.raw<{ rows: Array<{ failures: number }> }>(
    `INSERT INTO sign_in_failures AS f (key, failures, window_start_ms, blocked_until_ms) VALUES (?, 1, ?, 0)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN f.window_start_ms <= ? THEN 1 ELSE f.failures + 1 END,
       window_start_ms = CASE WHEN f.window_start_ms <= ? THEN EXCLUDED.window_start_ms ELSE f.window_start_ms END
     RETURNING failures::int AS failures`,
    [key, now, now - windowMs, now - windowMs],
  );
  return result.rows[0]!.failures;
}

export async function blockUntil(db: Knex, key: string, until: number): Promise<void> {
  await db("sign_in_failures")
    .where({ key })
    .update({ blocked_until_ms: db.raw("GREATEST(blocked_until_ms, ?)", [until]) });
}

/** The latest time before which one of `keys` is refused (0 when none is). */
export async function blockedUntil(db: Knex, keys: string[], now: number): Promise<number> {
  const [row] = (await db("sign_in_failures")
    .whereIn("key", keys)
    .where("blocked_until_ms", ">", now)
    .select(db.raw("COALESCE(MAX(blocked_until_ms), 0)::float8 AS until"))) as Array<{ until: number }>;
  return row?.until ?? 0;
}

export async function forgetFailures(db: Knex, key: string): Promise<void> {
  await db("sign_in_failures").where({ key }).delete();
}

/** Drops counters whose window is over and which block nothing any more. */
export async function dropStaleFailures(db: Knex, now: number, windowMs: number): Promise<void> {
  await db("sign_in_failures")
    .where("window_start_ms", "<=", now - windowMs)
    .andWhere("blocked_until_ms", "<=", now)
    .delete();
}
