import type { Command } from "commander";
import type { TrackerConfig } from "../config/config.js";
import { auditPage, recordChange } from "../core/auth/audit.js";
import { createUser, deleteUser, listUsers, updateAdmin } from "../core/auth/users.js";
import { changePassword } from "../core/auth/password-change.js";
import { openDatabase } from "../server.js";
import type { ServerFlags } from "./options.js";

/**
 * `tracker users list|create|reset-password|delete`: user management on the database directly (for
 * the first admin, and for a forgotten admin password), whether or not a server runs. Changes are
 * recorded in the audit trail with the actor `cli`; `tracker users audit` prints the trail.
 */

interface PasswordFlags {
  password?: string;
  passwordStdin?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function passwordOf(flags: PasswordFlags): Promise<string> {
  if (flags.passwordStdin) return readStdin();
  const password = flags.password ?? process.env.TRACKER_USER_PASSWORD;
  if (!password) throw new Error("give the password with --password, --password-stdin or TRACKER_USER_PASSWORD");
  return password;
}

type Resolve = (flags: ServerFlags) => Promise<TrackerConfig>;
type Fail = (message: string) => never;

async function withDatabase<T>(
  resolve: Resolve,
  fail: Fail,
  flags: ServerFlags,
  work: (db: Awaited<ReturnType<typeof openDatabase>>["knex"]) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(await resolve(flags));
  try {
    return await work(database.knex);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  } finally {
    await database.close();
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const audit = (db: Parameters<typeof recordChange>[0], action: string, username: string, details = {}) =>
  recordChange(db, { actor: "cli", action, target: `user:${username}`, details });

/** Adds the `users` commands; `withFlags` adds the database flags every command takes. */
export function addUserCommands(program: Command, withFlags: (cmd: Command) => Command, resolve: Resolve, fail: Fail) {
  const users = program.command("users").description("manage the users of --auth users").exitOverride();
  withFlags(users.command("list").description("list users")).action((flags: ServerFlags) =>
    withDatabase(resolve, fail, flags, async (db) => {
      for (const user of await listUsers(db)) say(`${user.username}${user.isAdmin ? "\tadmin" : ""}`);
    }),
  );
  withFlags(
    users
      .command("create <username>")
      .description("create a user")
      .option("--admin", "make the user an admin")
      .option("--password <password>", "the password (at least 12 characters; env TRACKER_USER_PASSWORD)")
      .option("--password-stdin", "read the password from standard input"),
  ).action((username: string, flags: ServerFlags & PasswordFlags & { admin?: boolean }) =>
    withDatabase(resolve, fail, flags, async (db) => {
      await createUser(db, username, await passwordOf(flags), Boolean(flags.admin));
      await audit(db, "createUser", username, { is_admin: Boolean(flags.admin) });
      say(`created ${flags.admin ? "admin " : ""}user ${username}`);
    }),
  );
  withFlags(
    users
      .command("reset-password <username>")
      .description("set a user's password; their web UI sessions end")
      .option("--password <password>", "the new password (env TRACKER_USER_PASSWORD)")
      .option("--password-stdin", "read the password from standard input"),
  ).action((username: string, flags: ServerFlags & PasswordFlags) =>
    withDatabase(resolve, fail, flags, async (db) => {
      await changePassword(db, username, await passwordOf(flags));
      await audit(db, "updateUserPassword", username);
      say(`password of ${username} changed`);
    }),
  );
  withFlags(
    users.command("set-admin <username> <yes-or-no>").description("make a user an admin (yes) or not (no)"),
  ).action((username: string, yesNo: string, flags: ServerFlags) =>
    withDatabase(resolve, fail, flags, async (db) => {
      await updateAdmin(db, username, /^(yes|true|1)$/i.test(yesNo));
      await audit(db, "updateUserAdmin", username, { is_admin: /^(yes|true|1)$/i.test(yesNo) });
      say(`${username} is ${/^(yes|true|1)$/i.test(yesNo) ? "" : "no longer "}an admin`);
    }),
  );
  withFlags(users.command("delete <username>").description("delete a user, their permissions and tokens")).action(
    (username: string, flags: ServerFlags) =>
      withDatabase(resolve, fail, flags, async (db) => {
        await deleteUser(db, username);
        await audit(db, "deleteUser", username);
        say(`deleted user ${username}`);
      }),
  );
  withFlags(
    users
      .command("audit")
      .description("print the audit trail of user, permission and token changes, newest first")
      .option("--max-results <n>", "entries to print (default 100)", (raw) => Number(raw)),
  ).action((flags: ServerFlags & { maxResults?: number }) =>
    withDatabase(resolve, fail, flags, async (db) => {
      const { entries } = await auditPage(db, flags.maxResults);
      for (const e of entries)
        say(
          `${new Date(e.timestamp).toISOString()}\t${e.actor}\t${e.action}\t${e.target}\t${JSON.stringify(e.details)}`,
        );
    }),
  );
}
