import type { Knex } from "knex";
import { newPasswordHash, setPasswordHash } from "./users.js";
import { endWebSessionsOfUser } from "./web-sessions.js";

/**
 * Sets a user's password and, in the same transaction, ends their web UI sessions but
 * `keepSessionId` (the session the change is made from, if any): a password is often changed
 * because the old one leaked, and a browser signed in with it must not stay signed in. Personal
 * access tokens are credentials of their own and stay valid (revoke them separately).
 */
export async function changePassword(
  db: Knex,
  username: string,
  password: string,
  keepSessionId?: string,
): Promise<void> {
  // Hashed before the transaction: scrypt takes tens of ms, and on the embedded database a
  // transaction holds the only connection.
  const hash = await newPasswordHash(password);
  await db.transaction(async (trx) => {
    await setPasswordHash(trx, username, hash);
    await endWebSessionsOfUser(trx, username, keepSessionId);
  });
}
