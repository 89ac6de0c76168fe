import type { Exchange } from "./recorder.js";
import type { OperationRef } from "./spec-validator.js";

/**
 * Coverage of the contract tests: for every operation of every revision, a success and every
 * client-error status its spec documents. 500 and 503 are documented on every operation but
 * cannot be provoked on demand here (503 is proven by the database-fault test of the server).
 */
export const STATUSES_REQUIRED = ["200", "400", "401", "404", "413"];
export const STATUSES_EXEMPT = new Set(["500", "503"]);

export interface CoverageRow {
  op: OperationRef;
  seen: Map<string, number>;
  missing: string[];
}

export function coverage(operations: OperationRef[], exchanges: Exchange[]): CoverageRow[] {
  return operations.map((op) => {
    const seen = new Map<string, number>();
    for (const e of exchanges) {
      if (e.revision === op.revision && e.operationId === op.operationId)
        seen.set(String(e.status), (seen.get(String(e.status)) ?? 0) + 1);
    }
    const wanted = op.statuses.filter((s) => !STATUSES_EXEMPT.has(s));
    return { op, seen, missing: wanted.filter((s) => !seen.has(s)) };
  });
}

export function coverageTable(rows: CoverageRow[]): string {
  const columns = [...new Set(rows.flatMap((r) => r.op.statuses))].filter((s) => !STATUSES_EXEMPT.has(s)).sort();
  const header = `| rev | operation | ${columns.join(" | ")} | missing |`;
  const line = `|---|---|${columns.map(() => "---").join("|")}|---|`;
  const body = rows.map((r) => {
    const cells = columns.map((c) =>
      !r.op.statuses.includes(c) ? "·" : r.seen.has(c) ? String(r.seen.get(c)) : "MISSING",
    );
    return `| ${r.op.revision.toUpperCase()} | ${r.op.operationId} | ${cells.join(" | ")} | ${r.missing.join(", ") || "-"} |`;
  });
  return [header, line, ...body].join("\n");
}
