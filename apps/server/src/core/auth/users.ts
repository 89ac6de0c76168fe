import type { Knex } from "knex";
import { alreadyExists, invalidParameter, notFound } from "../errors.js";
import { nowMs } from "../clock.js";
import { findExperimentRow } from "../../store/experiments.js";
import { findRegisteredModelRow } from "../../store/registry/registered-models.js";
import { isUniqueViolation } from "../../store/unique-violation.js";
import { permissionsOnResource } from "../../store/permission-grants.js";
import {
  countUsers,
  deletePermission,
  deleteUserRow,
  experimentPermissionsOf,
  findPermission,
  findUserByName,
  insertPermission,
  insertUser,
  listUserRows,
  registeredModelPermissionsOf,
  updatePermission,
  updateUserRow,
  type PermissionResource,
  type UserRow,
} from "../../store/users.js";
import { hashPassword } from "./passwords.js";
import { parsePermission, type PermissionName } from "./permissions.js";

/** Users and their permissions, with MLflow's basic-auth rules and messages (mlflow/server/auth/sqlalchemy_store.py). */

export interface User {
  id: number;
  username: string;
  isAdmin: boolean;
}

/** A user as MLflow's `users/get` answers it. */
export interface UserJson {
  id: number;
  username: string;
  is_admin: boolean;
  experiment_permissions: Array<{ experiment_id: string; user_id: number; permission: PermissionName }>;
  registered_model_permissions: Array<{ name: string; user_id: number; permission: PermissionName }>;
}

export const MIN_PASSWORD_LENGTH = 12;

export function validateUsername(username: string): void {
  if (!username || username.trim() === "") throw invalidParameter("Username cannot be empty.");
}

export function validatePassword(password: string): void {
  if (typeof password !== "string" || password.length < MIN_PASSWORD_LENGTH)
    throw invalidParameter(`Password must be a string longer than ${MIN_PASSWORD_LENGTH} characters.`);
}

const asUser = (row: UserRow): User => ({ id: row.id, username: row.username, isAdmin: row.is_admin });

export async function createUser(db: Knex, username: string, password: string, isAdmin = false): Promise<User> {
  validateUsername(username);
  validatePassword(password);
  const passwordHash = await hashPassword(password);
  try {
    const id = await insertUser(db, {
      username,
      password_hash: passwordHash,
      is_admin: isAdmin,
      created_at_ms: nowMs(),
    });
    return { id, username, isAdmin };
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`User (username=${username}) already exists.`);
    throw err;
  }
}

export async function userRowNamed(db: Knex, username: string): Promise<UserRow> {
  const row = await findUserByName(db, username);
  if (!row) throw notFound(`User with username=${username} not found`);
  return row;
}

export async function getUser(db: Knex, username: string): Promise<User> {
  return asUser(await userRowNamed(db, username));
}

export async function userJson(db: Knex, username: string): Promise<UserJson> {
  const row = await userRowNamed(db, username);
  const [experiments, models] = [
    await experimentPermissionsOf(db, row.id),
    await registeredModelPermissionsOf(db, row.id),
  ];
  return {
    id: row.id,
    username: row.username,
    is_admin: row.is_admin,
    experiment_permissions: experiments.map((p) => ({
      experiment_id: String(p.experiment_id),
      user_id: row.id,
      permission: p.permission as PermissionName,
    })),
    registered_model_permissions: models.map((p) => ({
      name: p.name,
      user_id: row.id,
      permission: p.permission as PermissionName,
    })),
  };
}

export async function listUsers(db: Knex): Promise<User[]> {
  return (await listUserRows(db)).map(asUser);
}

export const hasUsers = async (db: Knex): Promise<boolean> => (await countUsers(db)) > 0;

/** A new password's hash, after the checks every password passes (length). */
export async function newPasswordHash(password: string): Promise<string> {
  validatePassword(password);
  return hashPassword(password);
}

/** Stores a password hash (from newPasswordHash) as a user's password. */
export async function setPasswordHash(db: Knex, username: string, hash: string): Promise<void> {
  if (!(await updateUserRow(db, username, { password_hash: hash })))
    throw notFound(`User with username=${username} not found`);
}

export async function updateAdmin(db: Knex, username: string, isAdmin: boolean): Promise<void> {
  if (!(await updateUserRow(db, username, { is_admin: isAdmin })))
    throw notFound(`User with username=${username} not found`);
}

export async function deleteUser(db: Knex, username: string): Promise<void> {
  if (!(await deleteUserRow(db, username))) throw notFound(`User with username=${username} not found`);
}

/** How the two kinds of resource are named in MLflow's messages and checked for existence. */
const RESOURCES: Record<
  PermissionResource,
  {
    describe: (resource: string, username: string) => { exists: string; missing: string };
    key: (resource: string) => string | number;
    exists: (db: Knex, resource: string) => Promise<boolean>;
  }
> = {
  experiment: {
    describe: (id, username) => ({
      exists: `Experiment permission (experiment_id=${id}, username=${username}) already exists.`,
      missing: `Experiment permission with experiment_id=${id} and username=${username} not found`,
    }),
    key: (id) => Number(id),
    exists: async (db, id) => /^\d{1,18}$/.test(id) && (await findExperimentRow(db, Number(id))) !== undefined,
  },
  registered_model: {
    describe: (name, username) => ({
      exists: `Registered model permission (name=${name}, username=${username}) already exists.`,
      missing: `Registered model permission with name=${name} and username=${username} not found`,
    }),
    key: (name) => name,
    exists: async (db, name) => (await findRegisteredModelRow(db, name)) !== undefined,
  },
};

const RESOURCE_MISSING: Record<PermissionResource, (resource: string) => string> = {
  experiment: (id) => `No Experiment with id=${id} exists`,
  registered_model: (name) => `Registered Model with name=${name} not found`,
};

export interface PermissionJson {
  user_id: number;
  permission: PermissionName;
}

export async function createPermission(
  db: Knex,
  kind: PermissionResource,
  resource: string,
  username: string,
  permission: string,
): Promise<PermissionJson> {
  const parsed = parsePermission(permission);
  const user = await userRowNamed(db, username);
  const spec = RESOURCES[kind];
  if (!(await spec.exists(db, resource))) throw notFound(RESOURCE_MISSING[kind](resource));
  try {
    await insertPermission(db, kind, spec.key(resource), user.id, parsed);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(spec.describe(resource, username).exists);
    throw err;
  }
  return { user_id: user.id, permission: parsed };
}

export async function getPermission(
  db: Knex,
  kind: PermissionResource,
  resource: string,
  username: string,
): Promise<PermissionJson> {
  const user = await userRowNamed(db, username);
  const spec = RESOURCES[kind];
  const found = (await spec.exists(db, resource))
    ? await findPermission(db, kind, spec.key(resource), user.id)
    : undefined;
  if (found === undefined) throw notFound(spec.describe(resource, username).missing);
  return { user_id: user.id, permission: found as PermissionName };
}

export async function changePermission(
  db: Knex,
  kind: PermissionResource,
  resource: string,
  username: string,
  permission: string,
): Promise<void> {
  const parsed = parsePermission(permission);
  const user = await userRowNamed(db, username);
  const spec = RESOURCES[kind];
  const changed = (await spec.exists(db, resource))
    ? await updatePermission(db, kind, spec.key(resource), user.id, parsed)
    : false;
  if (!changed) throw notFound(spec.describe(resource, username).missing);
}

export async function removePermission(
  db: Knex,
  kind: PermissionResource,
  resource: string,
  username: string,
): Promise<void> {
  const user = await userRowNamed(db, username);
  const spec = RESOURCES[kind];
  const deleted = (await spec.exists(db, resource))
    ? await deletePermission(db, kind, spec.key(resource), user.id)
    : false;
  if (!deleted) throw notFound(spec.describe(resource, username).missing);
}

/** The creator of an experiment or registered model gets MANAGE on it. */
export async function grantCreator(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
): Promise<void> {
  await insertPermission(db, kind, resource, userId, "MANAGE", { replace: true });
}

/** A user's explicit permission on one resource, if any. */
export async function explicitPermission(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
  userId: number,
): Promise<PermissionName | undefined> {
  return (await findPermission(db, kind, resource, userId)) as PermissionName | undefined;
}

/** A user's explicit permissions on every resource of a kind, by resource key (experiment ids as strings). */
export async function explicitPermissions(
  db: Knex,
  kind: PermissionResource,
  userId: number,
): Promise<Map<string, PermissionName>> {
  if (kind === "experiment") {
    const rows = await experimentPermissionsOf(db, userId);
    return new Map(rows.map((r) => [String(r.experiment_id), r.permission as PermissionName]));
  }
  const rows = await registeredModelPermissionsOf(db, userId);
  return new Map(rows.map((r) => [r.name, r.permission as PermissionName]));
}

/** Every user's explicit permission on one resource, by username (for the web UI's permissions panel). */
export async function listPermissions(
  db: Knex,
  kind: PermissionResource,
  resource: string,
): Promise<Array<{ user_id: number; username: string; permission: PermissionName }>> {
  const spec = RESOURCES[kind];
  if (!(await spec.exists(db, resource))) throw notFound(RESOURCE_MISSING[kind](resource));
  const rows = await permissionsOnResource(db, kind, spec.key(resource));
  return rows.map((r) => ({ user_id: r.user_id, username: r.username, permission: r.permission as PermissionName }));
}
