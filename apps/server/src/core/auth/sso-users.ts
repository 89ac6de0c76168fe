import type { Knex } from "knex";
import { nowMs } from "../clock.js";
import { findUserByName, insertUser, type UserRow } from "../../store/users.js";
import { isUniqueViolation } from "../../store/unique-violation.js";
import { validateUsername } from "./users.js";

/**
 * Users named by single sign-on (a trusted proxy's header, or an identity provider's JWT): the
 * first request of an unknown name creates the user, not admin, so that the default permission
 * applies to them until someone grants more. Such a user has no password (the stored hash is not
 * an scrypt hash, so HTTP Basic never matches) until an admin sets one.
 */

/** Not an scrypt hash: verifyPassword refuses every password against it. */
export const NO_PASSWORD = "sso$no-password";

/** The user of that name, created first when unknown; `created` says whether it was. */
export async function userForSignOn(db: Knex, username: string): Promise<{ row: UserRow; created: boolean }> {
  validateUsername(username);
  const existing = await findUserByName(db, username);
  if (existing) return { row: existing, created: false };
  const row = { username, password_hash: NO_PASSWORD, is_admin: false, created_at_ms: nowMs() };
  try {
    const id = await insertUser(db, row);
    return { row: { ...row, id }, created: true };
  } catch (err) {
    // Two first requests at once: the other one created it.
    if (!isUniqueViolation(err)) throw err;
    const raced = await findUserByName(db, username);
    if (!raced) throw err;
    return { row: raced, created: false };
  }
}
