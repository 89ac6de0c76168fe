import type { Knex } from "knex";
import { PERMISSION_TABLES, type PermissionResource } from "./users.js";

/** SQL for every user's explicit permission on one experiment or registered model. */

export interface PermissionGrantRow {
  user_id: number;
  username: string;
  permission: string;
}

export async function permissionsOnResource(
  db: Knex,
  kind: PermissionResource,
  resource: string | number,
): Promise<PermissionGrantRow[]> {
  const { table, key } = PERMISSION_TABLES[kind];
  return (await db(`${table} as p`)
    .join("users as u", "u.id", "p.user_id")
    .select(db.raw("u.id::float8 AS user_id"), "u.username", "p.permission")
    .where(`p.${key}`, resource)
    .orderBy("u.username")) as PermissionGrantRow[];
}
