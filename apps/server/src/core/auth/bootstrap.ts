import type { Knex } from "knex";
import { TrackerError } from "../errors.js";
import { createUser, hasUsers } from "./users.js";
import { findUserByName } from "../../store/users.js";

/**
 * The first admin, as MLflow's basic_auth.ini names it (admin_username, admin_password): created at
 * start from TRACKER_AUTH_ADMIN_USERNAME / TRACKER_AUTH_ADMIN_PASSWORD when no user of that name
 * exists (an existing user is left as it is). Says what it did, for the start-up log.
 */
export async function ensureAdmin(
  db: Knex,
  admin: { username: string; password: string } | undefined,
): Promise<"created" | "exists" | "no users" | "users exist"> {
  if (!admin) return (await hasUsers(db)) ? "users exist" : "no users";
  if (await findUserByName(db, admin.username)) return "exists";
  try {
    await createUser(db, admin.username, admin.password, true);
    return "created";
  } catch (err) {
    // Another worker created it first.
    if (err instanceof TrackerError && err.code === "RESOURCE_ALREADY_EXISTS") return "exists";
    throw err;
  }
}
