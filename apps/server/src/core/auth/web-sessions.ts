import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { nowMs } from "../clock.js";
import { findUserByName } from "../../store/users.js";
import {
  deleteExpiredWebSessions,
  deleteWebSession,
  deleteWebSessionsOfUser,
  insertWebSession,
  userOfWebSession,
} from "../../store/web-sessions.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import type { User } from "./users.js";

/**
 * Sign-in sessions of the web UI (issue 29): a session id of 256 random bits lives in the browser's
 * HttpOnly cookie; the database keeps its SHA-256, its user and its expiry. Every session has a
 * CSRF token derived from its id (a hash under another label), which the UI sends in a header with
 * every write: a page on another site can make the browser send the cookie but cannot read the
 * token (the cookie is HttpOnly and the API answers no cross-origin reads).
 */

const digest = (label: string, sessionId: string) =>
  createHash("sha256").update(`${label}\u0000${sessionId}`, "utf8").digest("base64url");

const storedId = (sessionId: string) => digest("session", sessionId);

/** The CSRF token of a session: the UI sends it in `X-CSRF-Token` with cookie-authenticated writes. */
export const csrfTokenOf = (sessionId: string): string => digest("csrf", sessionId);

/** A session id as the cookie carries it: 43 base64url characters. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface WebSession {
  /** The secret for the cookie; never stored. */
  id: string;
  csrfToken: string;
  expiresAt: number;
  user: User;
}

/**
 * Starts a session for a user, lasting `lifetimeMs` (config.sessionLifetimeMs); expired sessions of
 * anyone are swept on the way.
 */
export async function startWebSession(db: Knex, user: User, lifetimeMs: number): Promise<WebSession> {
  const now = nowMs();
  await deleteExpiredWebSessions(db, now);
  const id = randomBytes(32).toString("base64url");
  const expiresAt = now + lifetimeMs;
  await insertWebSession(db, {
    id_sha256: storedId(id),
    user_id: user.id,
    created_at_ms: now,
    expires_at_ms: expiresAt,
  });
  return { id, csrfToken: csrfTokenOf(id), expiresAt, user };
}

/** The user and expiry of an unexpired session, or undefined. */
export async function webSessionUser(
  db: Knex,
  sessionId: string,
): Promise<{ user: User; expiresAt: number } | undefined> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return undefined;
  const row = await userOfWebSession(db, storedId(sessionId), nowMs());
  return row && { user: { id: row.id, username: row.username, isAdmin: row.is_admin }, expiresAt: row.expires_at_ms };
}

export async function endWebSession(db: Knex, sessionId: string): Promise<void> {
  if (SESSION_ID_PATTERN.test(sessionId)) await deleteWebSession(db, storedId(sessionId));
}

/**
 * Ends every session of a user but the one given (the session a user changes their own password
 * from stays signed in); resolves to how many ended. A new password is often set because the old
 * one leaked: a browser signed in with it must not stay signed in.
 */
export async function endWebSessionsOfUser(db: Knex, username: string, keepSessionId?: string): Promise<number> {
  return deleteWebSessionsOfUser(
    db,
    username,
    keepSessionId !== undefined && SESSION_ID_PATTERN.test(keepSessionId) ? storedId(keepSessionId) : undefined,
  );
}

let decoy: Promise<string> | undefined;

/**
 * The user a username and password stand for, or undefined. An unknown user costs one scrypt too,
 * so that timing does not tell which usernames exist.
 */
export async function userOfPassword(db: Knex, username: string, password: string): Promise<User | undefined> {
  const row = await findUserByName(db, username);
  if (!row) {
    decoy ??= hashPassword("decoy password, never matches");
    await verifyPassword(password, await decoy);
    return undefined;
  }
  if (!(await verifyPassword(password, row.password_hash))) return undefined;
  return { id: row.id, username: row.username, isAdmin: row.is_admin };
}
