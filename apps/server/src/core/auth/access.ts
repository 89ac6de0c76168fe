import type { Knex } from "knex";
import { findExperimentIdByName } from "../../store/experiments.js";
import { findLoggedModelRow } from "../../store/logged-models.js";
import { findRunRow } from "../../store/runs.js";
import type { PermissionResource } from "../../store/users.js";
import { explicitPermission, explicitPermissions } from "./users.js";
import { allows, type Capability, type PermissionName } from "./permissions.js";

/**
 * What a user may do with a resource, as MLflow's basic-auth app decides it: admins everything;
 * others their explicit permission on the experiment or registered model, else the server's
 * default permission. Runs and logged models follow their experiment; versions and aliases their
 * registered model.
 */

export interface Caller {
  id: number | undefined;
  isAdmin: boolean;
}

export async function permissionOn(
  db: Knex,
  caller: Caller,
  kind: PermissionResource,
  resource: string | number,
  fallback: PermissionName,
): Promise<PermissionName> {
  if (caller.isAdmin) return "MANAGE";
  if (caller.id === undefined) return fallback;
  const key = kind === "experiment" ? Number(resource) : String(resource);
  if (kind === "experiment" && !Number.isSafeInteger(key)) return fallback;
  return (await explicitPermission(db, kind, key, caller.id)) ?? fallback;
}

export async function may(
  db: Knex,
  caller: Caller,
  kind: PermissionResource,
  resource: string | number,
  capability: Capability,
  fallback: PermissionName,
): Promise<boolean> {
  return allows(await permissionOn(db, caller, kind, resource, fallback), capability);
}

/** A predicate for "may read" over many resources of a kind, with one query for the caller's permissions. */
export async function readableBy(
  db: Knex,
  caller: Caller,
  kind: PermissionResource,
  fallback: PermissionName,
): Promise<(resource: string | number) => boolean> {
  if (caller.isAdmin) return () => true;
  const explicit = caller.id === undefined ? new Map() : await explicitPermissions(db, kind, caller.id);
  return (resource) => allows(explicit.get(String(resource)) ?? fallback, "read");
}

/** The experiment of a run, or undefined when there is no such run (the operation then reports it). */
export async function experimentOfRun(db: Knex, runId: string): Promise<number | undefined> {
  if (!/^[0-9a-f]{32}$/.test(runId)) return undefined;
  return (await findRunRow(db, runId))?.experiment_id;
}

export async function experimentOfLoggedModel(db: Knex, modelId: string): Promise<number | undefined> {
  const row = (await findLoggedModelRow(db, modelId)) as { experiment_id: number | string } | undefined;
  return row === undefined ? undefined : Number(row.experiment_id);
}

export const experimentNamed = (db: Knex, name: string): Promise<number | undefined> =>
  findExperimentIdByName(db, name);
