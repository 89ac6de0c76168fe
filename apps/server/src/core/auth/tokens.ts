import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { invalidParameter, notFound } from "../errors.js";
import { nowMs } from "../clock.js";
import {
  accessTokensOf,
  findAccessTokenById,
  findAccessTokenBySha256,
  findUserById,
  insertAccessToken,
  revokeAccessTokenRow,
  touchAccessToken,
  type AccessTokenRow,
  type UserRow,
} from "../../store/users.js";

/**
 * Personal access tokens (beyond MLflow): `trk_<43 base64url characters>` (256 random bits), shown
 * once at creation; the database keeps their SHA-256 only. A token acts as its user (Bearer), until
 * it expires or is revoked.
 */

export const TOKEN_PREFIX = "trk_";
const MAX_NAME_LENGTH = 200;
/** last_used_at is written at most once a minute per token. */
const TOUCH_INTERVAL_MS = 60_000;

export interface AccessTokenJson {
  id: string;
  name: string;
  username: string;
  created_at: number;
  expires_at?: number;
  last_used_at?: number;
  revoked_at?: number;
}

const sha256 = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export function tokenJson(row: AccessTokenRow, username: string): AccessTokenJson {
  return {
    id: String(row.id),
    name: row.name,
    username,
    created_at: row.created_at_ms,
    ...(row.expires_at_ms === null ? {} : { expires_at: row.expires_at_ms }),
    ...(row.last_used_at_ms === null ? {} : { last_used_at: row.last_used_at_ms }),
    ...(row.revoked_at_ms === null ? {} : { revoked_at: row.revoked_at_ms }),
  };
}

export async function createAccessToken(
  db: Knex,
  user: { id: number; username: string },
  name: string,
  expiresAt?: number,
): Promise<{ token: string; info: AccessTokenJson }> {
  if (name.trim() === "" || name.length > MAX_NAME_LENGTH)
    throw invalidParameter(`Token name must be 1 to ${MAX_NAME_LENGTH} characters`);
  const now = nowMs();
  if (expiresAt !== undefined && expiresAt <= now)
    throw invalidParameter(`Invalid value ${expiresAt} for parameter 'expires_at': it lies in the past`);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = {
    user_id: user.id,
    name,
    token_sha256: sha256(token),
    created_at_ms: now,
    expires_at_ms: expiresAt ?? null,
  };
  const id = await insertAccessToken(db, row);
  return {
    token,
    info: tokenJson({ ...row, id, last_used_at_ms: null, revoked_at_ms: null }, user.username),
  };
}

export async function listAccessTokens(db: Knex, user: { id: number; username: string }): Promise<AccessTokenJson[]> {
  return (await accessTokensOf(db, user.id)).map((row) => tokenJson(row, user.username));
}

/**
 * Revokes a token: its owner's, or anyone's for an admin. A token that is not visible to the
 * caller is reported missing, as one that does not exist.
 */
export async function revokeAccessToken(
  db: Knex,
  caller: { id: number; isAdmin: boolean },
  tokenId: string,
): Promise<void> {
  const id = /^\d{1,15}$/.test(tokenId) ? Number(tokenId) : undefined;
  const row = id === undefined ? undefined : await findAccessTokenById(db, id);
  if (!row || (row.user_id !== caller.id && !caller.isAdmin))
    throw notFound(`Access token with id=${tokenId} not found`);
  await revokeAccessTokenRow(db, row.id, nowMs());
}

/** The user a Bearer token stands for, or undefined for an unknown, expired or revoked token. */
export async function userOfAccessToken(db: Knex, token: string): Promise<UserRow | undefined> {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const row = await findAccessTokenBySha256(db, sha256(token));
  const now = nowMs();
  if (!row || row.revoked_at_ms !== null || (row.expires_at_ms !== null && row.expires_at_ms <= now)) return undefined;
  if (row.last_used_at_ms === null || now - row.last_used_at_ms >= TOUCH_INTERVAL_MS)
    await touchAccessToken(db, row.id, now);
  return findUserById(db, row.user_id);
}
