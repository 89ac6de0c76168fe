/** The markdown report: summary, removed and added operations, then every changed operation. */
import { allChanges, formatChangeLocations } from "./location.js";
import type { Change, OperationReport, Report } from "./types.js";

export interface MarkdownOptions {
  /** Heading level of the title (1 = `#`). The per-operation headings are two levels below. */
  level?: number;
}

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const level = options.level ?? 1;
  const h = (n: number) => "#".repeat(level + n);
  const lines: string[] = [];
  const { summary } = report;
  lines.push(`${h(0)} API changes: ${report.from} → ${report.to}`, "");
  const total = summary.breaking + summary["non-breaking"] + summary.annotation;
  if (total === 0) {
    lines.push("No changes.", "");
    return lines.join("\n");
  }
  const acknowledged = summary.acknowledged > 0 ? ` (${summary.acknowledged} acknowledged)` : "";
  lines.push(
    `**${summary.breaking} breaking**${acknowledged}, ${summary["non-breaking"]} non-breaking, ${summary.annotation} annotation changes ` +
      `(${summary.deprecations} ${summary.deprecations === 1 ? "deprecation" : "deprecations"}). ` +
      `Operations: ${summary.operationsAdded} added, ${summary.operationsRemoved} removed, ${summary.operationsChanged} changed.`,
    "",
  );
  for (const move of report.prefixMoves) {
    lines.push(
      `> **The path prefix moved** (breaking): \`${move.from}\` → \`${move.to}\` for ${move.operations} ${move.operations === 1 ? "operation" : "operations"}. ` +
        "Operations are compared by their path below the prefix; each moved operation lists the move.",
      "",
    );
  }

  const located = allChanges(report).some((c) => c.before || c.after);
  const removed = report.operations.filter((o) => o.status === "removed");
  const added = report.operations.filter((o) => o.status === "added");
  const changed = report.operations.filter((o) => o.status === "changed");
  if (removed.length > 0) {
    lines.push(`${h(1)} Removed operations`, "", ...operationTable(removed, (o) => o.pathBefore, located), "");
  }
  if (added.length > 0) {
    lines.push(`${h(1)} Added operations`, "", ...operationTable(added, (o) => o.pathAfter, located), "");
  }
  if (changed.length > 0) {
    lines.push(`${h(1)} Changed operations`, "");
    for (const op of changed) {
      lines.push(`${h(2)} \`${op.key}\`${op.operationId ? ` (${op.operationId})` : ""}`, "");
      lines.push(...changeList(op.changes, true, located));
    }
  }
  if (report.document.length > 0) {
    lines.push(`${h(1)} Document`, "", ...changeList(report.document, false, located));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

function operationTable(
  ops: OperationReport[],
  path: (o: OperationReport) => string | undefined,
  located: boolean,
): string[] {
  return [
    `| classification | operation | operationId | path |${located ? " line |" : ""}`,
    `|---|---|---|---|${located ? "---|" : ""}`,
    ...ops.map((o) => {
      const [first] = o.changes;
      const line = located && first ? ` ${lines(first)} |` : "";
      return `| ${label(first)} | \`${o.key}\` | ${o.operationId ?? ""} | \`${path(o) ?? ""}\` |${line}`;
    }),
  ];
}

/** A table of the changes; documentation-only annotations are folded into a <details> block. */
function changeList(changes: Change[], withWhere: boolean, located: boolean): string[] {
  const folded = changes.filter((c) => c.classification === "annotation" && c.kind === "documentation");
  const shown = changes.filter((c) => !folded.includes(c));
  const out: string[] = [];
  if (shown.length > 0) {
    const columns = ["classification", ...(withWhere ? ["where"] : []), "change", ...(located ? ["lines"] : [])];
    out.push(`| ${columns.join(" | ")} |`, `|${columns.map(() => "---|").join("")}`);
    for (const c of shown) {
      const cells = [label(c), ...(withWhere ? [cell(c.where)] : []), cell(message(c)), ...(located ? [lines(c)] : [])];
      out.push(`| ${cells.join(" | ")} |`);
    }
    out.push("");
  }
  if (folded.length > 0) {
    const n = folded.length;
    out.push(`<details><summary>${n} documentation ${n === 1 ? "change" : "changes"} (annotation)</summary>`, "");
    for (const c of folded) {
      const at = located && (c.before || c.after) ? ` (${lines(c)})` : "";
      out.push(withWhere ? `- ${c.where}: ${c.message}${at}` : `- ${c.message}${at}`);
    }
    out.push("", "</details>", "");
  }
  return out;
}

function label(change: Pick<Change, "classification" | "acknowledged"> | undefined): string {
  const classification = change?.classification ?? "non-breaking";
  if (classification !== "breaking") return classification;
  return change?.acknowledged ? "**breaking** (acknowledged)" : "**breaking**";
}

function message(change: Change): string {
  return change.acknowledged ? `${change.message}. Acknowledged: ${change.acknowledged.reason}` : change.message;
}

function lines(change: Change): string {
  return formatChangeLocations(change, { column: false });
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
