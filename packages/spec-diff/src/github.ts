/**
 * GitHub Actions output: one workflow command per change, on the new file's line
 * (`::error file=…,line=…,title=…::message`): unacknowledged breaking changes as errors,
 * acknowledged ones as warnings, the rest as notices. Documentation-only changes are left to the
 * step summary (GitHub shows at most 10 errors and 10 warnings per step, 50 annotations per job).
 */
import { formatLocation } from "./location.js";
import type { Change, Report } from "./types.js";

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function level(change: Change): "error" | "warning" | "notice" {
  if (change.classification === "breaking") return change.acknowledged ? "warning" : "error";
  return "notice";
}

function annotation(change: Change, operation: string | undefined): string {
  const location = change.after ?? change.before;
  const properties: string[] = [];
  if (location) {
    properties.push(`file=${escapeProperty(location.file)}`, `line=${location.line}`, `col=${location.column}`);
  }
  const acknowledged = change.acknowledged ? " (acknowledged)" : "";
  const title = `${change.classification}${acknowledged}: ${operation ?? "document"}`;
  properties.push(`title=${escapeProperty(title)}`);
  let message = `${change.where}: ${change.message}`;
  if (change.before && change.after) message += ` (was ${formatLocation(change.before)})`;
  if (change.acknowledged) message += `\nAcknowledged: ${change.acknowledged.reason}`;
  return `::${level(change)} ${properties.join(",")}::${escapeData(message)}`;
}

/** The workflow commands of a report, one line each. */
export function renderGithubAnnotations(report: Report): string {
  const lines: string[] = [];
  const add = (changes: Change[], operation?: string) => {
    for (const c of changes) {
      if (c.kind === "documentation" && c.classification === "annotation") continue;
      lines.push(annotation(c, operation));
    }
  };
  add(report.document);
  for (const op of report.operations) add(op.changes, op.key);
  const { summary } = report;
  const acknowledged = summary.acknowledged > 0 ? ` (${summary.acknowledged} acknowledged)` : "";
  lines.push(
    `${report.from} → ${report.to}: ${summary.breaking} breaking${acknowledged}, ${summary["non-breaking"]} non-breaking, ${summary.annotation} annotation`,
  );
  return `${lines.join("\n")}\n`;
}
