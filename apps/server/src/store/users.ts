import type { Knex } from "knex";

/** SQL for users, their permissions on experiments and registered models, and their access tokens. */

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  is_admin: boolean;
  created_at_ms: number;
}

export interface ExperimentPermissionRow {
  experiment_id: number;
  user_id: number;
  permission: string;
}

export interface RegisteredModelPermissionRow {
  name: string;
  user_id: number;
  permission: string;
}

export interface AccessTokenRow {
  id: number;
  user_id: number;
  name: string;
  created_at_ms: number;
  expires_at_ms: number | null;
  last_used_at_ms: number | null;
  revoked_at_ms: number | null;
}

// bigint columns come back as strings from pg and numbers from PGlite: cast in SQL.
const USER_COLUMNS = ["id", "username", "password_hash", "is_admin", "created_at_ms"].map((c) =>
  c === "id" || c === "created_at_ms" ? `${c}::float8 AS ${c}` : c,
);
const TOKEN_COLUMNS = [
  "id::float8 AS id",
  "user_id::float8 AS user_id",
  "name",
  "created_at_ms::float8 AS created_at_ms",
  "expires_at_ms::float8 AS expires_at_ms",
  "last_used_at_ms::float8 AS last_used_at_ms",
  "revoked_at_ms::float8 AS revoked_at_ms",
];
const raw = (db: Knex, columns: string[]) => columns.map((c) => db.raw(c));

export async function insertUser(db: Knex, row: Omit<UserRow, "id">): Promise<number> {
  const [inserted] = (await db("users").insert(row).returning(db.raw("id::float8 AS id"))) as Array<{ id: number }>;
  return inserted!.id;
}

export async function findUserByName(db: Knex, username: string): Promise<UserRow | undefined> {
  return (await db("users").select(raw(db, USER_COLUMNS)).where({ username }).first()) as UserRow | undefined;
}

export async function findUserById(db: Knex, id: number): Promise<UserRow | undefined> {
  return (await db("users").select(raw(db, USER_COLUMNS)).where({ id }).first()) as UserRow | undefined;
}

export async function listUserRows(db: Knex): Promise<UserRow[]> {
  return (await db("users").select(raw(db, USER_COLUMNS)).orderBy("username")) as UserRow[];
}

export async function countUsers(db: Knex): Promise<number> {
  const [row] = (await db("users").select(db.raw("count(*)::int AS n"))) as Array<{ n: number }>;
  return row!.n;
}

/** Changes one user; false when there is none of that name. */
export async function updateUserRow(
  db: Knex,
  username: string,
  changes: Partial<Pick<UserRow, "password_hash" | "is_admin">>,
): Promise<boolean> {
  return (await db("users").where({ username }).update(changes).returning("username")).length > 0;
}

export async function deleteUserRow(db: Knex, username: string): Promise<boolean> {
  return (await db("users").where({ username }).delete().returning("username")).length > 0;
}

/** A user's permissions on experiments (`experiment_id` as a decimal string, as the API names it). */
export async function experimentPermissionsOf(db: Knex, userId: number): Promise<ExperimentPermissionRow[]> {
  return (await db("experiment_permissions")
    .select(raw(db, ["experiment_id::float8 AS experiment_id", "user_id::float8 AS user_id", "permission"]))
    .where({ user_id: userId })
    .orderBy("experiment_id")) as ExperimentPermissionRow[];
}

export async function registeredModelPermissionsOf(db: Knex, userId: number): Promise<RegisteredModelPermissionRow[]> {
  return (await db("registered_model_permissions")
    .select(raw(db, ["name", "user_id::float8 AS user_id", "permission"]))
    .where({ user_id: userId })
    .orderBy("name")) as RegisteredModelPermissionRow[];
}

/** The tables of the two kinds of resource permission, and the column naming the resource. */
export const PERMISSION_TABLES = {
  experiment: { table: "experiment_permissions", key: "experiment_id" },
  registered_model: { table: "registered_model_permissions", key: "name" },
} as const;
export type PermissionResource = keyof typeof PERMISSION_TABLES;

export async function findPermission(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
): Promise<string | undefined> {
  const { table, key } = PERMISSION_TABLES[kind];
  const row = (await db(table)
    .select("permission")
    .where({ [key]: resource, user_id: userId })
    .first()) as { permission: string } | undefined;
  return row?.permission;
}

/**
 * Stores a user's permission on a resource. `replace`: set it whether or not one exists (the
 * creator's MANAGE); otherwise an existing one is a unique-key error for the caller to report.
 */
export async function insertPermission(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
  permission: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<void> {
  const { table, key } = PERMISSION_TABLES[kind];
  const insert = db(table).insert({ [key]: resource, user_id: userId, permission });
  await (replace ? insert.onConflict([key, "user_id"]).merge(["permission"]) : insert);
}

export async function updatePermission(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
  permission: string,
): Promise<boolean> {
  const { table, key } = PERMISSION_TABLES[kind];
  return (
    (
      await db(table)
        .where({ [key]: resource, user_id: userId })
        .update({ permission })
        .returning("permission")
    ).length > 0
  );
}

export async function deletePermission(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
): Promise<boolean> {
  const { table, key } = PERMISSION_TABLES[kind];
  return (
    (
      await db(table)
        .where({ [key]: resource, user_id: userId })
        .delete()
        .returning("permission")
    ).length > 0
  );
}

export async function insertAccessToken(
  db: Knex,
  row: Omit<AccessTokenRow, "id" | "last_used_at_ms" | "revoked_at_ms"> & { token_sha256: string },
): Promise<number> {
  const [inserted] = (await db("access_tokens").insert(row).returning(db.raw("id::float8 AS id"))) as Array<{
    id: number;
  }>;
  return inserted!.id;
}

export async function findAccessTokenBySha256(db: Knex, sha256: string): Promise<AccessTokenRow | undefined> {
  return (await db("access_tokens").select(raw(db, TOKEN_COLUMNS)).where({ token_sha256: sha256 }).first()) as
    | AccessTokenRow
    | undefined;
}

export async function findAccessTokenById(db: Knex, id: number): Promise<AccessTokenRow | undefined> {
  return (await db("access_tokens").select(raw(db, TOKEN_COLUMNS)).where({ id }).first()) as AccessTokenRow | undefined;
}

export async function accessTokensOf(db: Knex, userId: number): Promise<AccessTokenRow[]> {
  return (await db("access_tokens")
    .select(raw(db, TOKEN_COLUMNS))
    .where({ user_id: userId })
    .orderBy("id")) as AccessTokenRow[];
}

export async function revokeAccessTokenRow(db: Knex, id: number, now: number): Promise<void> {
  await db("access_tokens").where({ id }).whereNull("revoked_at_ms").update({ revoked_at_ms: now });
}

export async function touchAccessToken(db: Knex, id: number, now: number): Promise<void> {
  await db("access_tokens").where({ id }).update({ last_used_at_ms: now });
}
