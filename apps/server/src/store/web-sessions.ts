import type { Knex } from "knex";
import type { UserRow } from "./users.js";

/** SQL for the web UI's sign-in sessions (table web_sessions, migration 0012). */

export interface WebSessionRow {
  id_sha256: string;
  user_id: number;
  created_at_ms: number;
  expires_at_ms: number;
}

export async function insertWebSession(db: Knex, row: WebSessionRow): Promise<void> {
  await db("web_sessions").insert(row);
}

/** The user of an unexpired session, with the session's expiry. */
export async function userOfWebSession(
  db: Knex,
  idSha256: string,
  now: number,
): Promise<(Pick<UserRow, "id" | "username" | "is_admin"> & { expires_at_ms: number }) | undefined> {
  return (await db("web_sessions as s")
    .join("users as u", "u.id", "s.user_id")
    .select(
      db.raw("u.id::float8 AS id"),
      "u.username",
      "u.is_admin",
      db.raw("s.expires_at_ms::float8 AS expires_at_ms"),
    )
    .where("s.id_sha256", idSha256)
    .where("s.expires_at_ms", ">", now)
    .first()) as (Pick<UserRow, "id" | "username" | "is_admin"> & { expires_at_ms: number }) | undefined;
}

export async function deleteWebSession(db: Knex, idSha256: string): Promise<void> {
  await db("web_sessions").where({ id_sha256: idSha256 }).delete();
}

/** Removes the sessions that expired before `now`; resolves to how many. */
export async function deleteExpiredWebSessions(db: Knex, now: number): Promise<number> {
  return db("web_sessions").where("expires_at_ms", "<=", now).delete();
}

/** Removes the sessions of a user, but the one whose hash is `keepIdSha256`; resolves to how many. */
export async function deleteWebSessionsOfUser(db: Knex, username: string, keepIdSha256?: string): Promise<number> {
  const query = db("web_sessions").whereIn("user_id", db("users").select("id").where({ username }));
  if (keepIdSha256 !== undefined) query.whereNot("id_sha256", keepIdSha256);
  return query.delete();
}
