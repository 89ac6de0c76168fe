import type { Knex } from "knex";
import { nowMs } from "../clock.js";
import { invalidParameter } from "../errors.js";
import { decodeOffsetToken, encodeOffsetToken } from "../../search/index.js";
import { auditRows, insertAuditRow } from "../../store/auth-audit.js";

/**
 * The audit trail of issue 29: who changed which user, permission or access token, and when.
 * Entries are written after the change succeeded and never hold a secret (no password, no token).
 */

export interface AuditChange {
  /** Who: a username, `cli` for the command line, `sso` for a user created at first sign-on. */
  actor: string;
  /** What: the operation (`createUser`, `updateExperimentPermission`, `revokeAccessToken`, …). */
  action: string;
  /** On what: `user:<name>`, `experiment:<id>`, `registered_model:<name>`, `access_token:<id>`. */
  target: string;
  /** The operation's other non-secret fields (permission, is_admin, token name, …). */
  details?: Record<string, unknown>;
}

export interface AuditEntryJson {
  id: string;
  timestamp: number;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

export async function recordChange(db: Knex, change: AuditChange): Promise<void> {
  await insertAuditRow(db, { at_ms: nowMs(), details: {}, ...change });
}

export const DEFAULT_AUDIT_PAGE = 100;
export const MAX_AUDIT_PAGE = 1000;

/** A page of the trail, newest first; the token continues after its last entry. */
export async function auditPage(
  db: Knex,
  maxResults: number = DEFAULT_AUDIT_PAGE,
  pageToken?: string,
): Promise<{ entries: AuditEntryJson[]; next_page_token?: string }> {
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > MAX_AUDIT_PAGE)
    throw invalidParameter(`max_results must be an integer from 1 to ${MAX_AUDIT_PAGE}, got ${maxResults}`);
  // The token holds the id of the last entry of the previous page.
  const before = pageToken ? decodeOffsetToken(pageToken) : undefined;
  const rows = await auditRows(db, maxResults + 1, before);
  const page = rows.slice(0, maxResults);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({
      id: String(row.id),
      timestamp: row.at_ms,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details,
    })),
    ...(rows.length > maxResults && last ? { next_page_token: encodeOffsetToken(last.id) } : {}),
  };
}
