import type { Knex } from "knex";

/** SQL for the audit trail of user, permission and token changes (table auth_audit, migration 0013). */

export interface AuditRow {
  id: number;
  at_ms: number;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

export async function insertAuditRow(db: Knex, row: Omit<AuditRow, "id">): Promise<void> {
  await db("auth_audit").insert({ ...row, details: JSON.stringify(row.details) });
}

/** At most `limit` entries, newest first, strictly older than the entry `beforeId` when given. */
export async function auditRows(db: Knex, limit: number, beforeId?: number): Promise<AuditRow[]> {
  const query = db("auth_audit")
    .select(db.raw("id::float8 AS id"), db.raw("at_ms::float8 AS at_ms"), "actor", "action", "target", "details")
    .orderBy("id", "desc")
    .limit(limit);
  if (beforeId !== undefined) query.where("id", "<", beforeId);
  const rows = (await query) as Array<Omit<AuditRow, "details"> & { details: unknown }>;
  return rows.map((row) => ({
    ...row,
    details: (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
  }));
}
