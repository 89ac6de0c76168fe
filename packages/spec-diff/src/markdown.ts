/** The markdown report: summary, removed and added operations, then every changed operation. */
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
  lines.push(
    `**${summary.breaking} breaking**, ${summary["non-breaking"]} non-breaking, ${summary.annotation} annotation changes ` +
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

  const removed = report.operations.filter((o) => o.status === "removed");
  const added = report.operations.filter((o) => o.status === "added");
  const changed = report.operations.filter((o) => o.status === "changed");
  if (removed.length > 0) {
    lines.push(`${h(1)} Removed operations`, "", ...operationTable(removed, (o) => o.pathBefore), "");
  }
  if (added.length > 0) {
    lines.push(`${h(1)} Added operations`, "", ...operationTable(added, (o) => o.pathAfter), "");
  }
  if (changed.length > 0) {
    lines.push(`${h(1)} Changed operations`, "");
    for (const op of changed) {
      lines.push(`${h(2)} \`${op.key}\`${op.operationId ? ` (${op.operationId})` : ""}`, "");
      lines.push(...changeList(op.changes, true));
    }
  }
  if (report.document.length > 0) {
    lines.push(`${h(1)} Document`, "", ...changeList(report.document, false));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

function operationTable(ops: OperationReport[], path: (o: OperationReport) => string | undefined): string[] {
  return [
    "| classification | operation | operationId | path |",
    "|---|---|---|---|",
    ...ops.map((o) => {
      const classification = o.changes[0]?.classification ?? "non-breaking";
      return `| ${label(classification)} | \`${o.key}\` | ${o.operationId ?? ""} | \`${path(o) ?? ""}\` |`;
    }),
  ];
}

/** A table of the changes; documentation-only annotations are folded into a <details> block. */
function changeList(changes: Change[], withWhere: boolean): string[] {
  const folded = changes.filter((c) => c.classification === "annotation" && c.kind === "documentation");
  const shown = changes.filter((c) => !folded.includes(c));
  const lines: string[] = [];
  if (shown.length > 0) {
    lines.push(
      withWhere ? "| classification | where | change |" : "| classification | change |",
      withWhere ? "|---|---|---|" : "|---|---|",
    );
    for (const c of shown) {
      lines.push(
        withWhere
          ? `| ${label(c.classification)} | ${cell(c.where)} | ${cell(c.message)} |`
          : `| ${label(c.classification)} | ${cell(c.message)} |`,
      );
    }
    lines.push("");
  }
  if (folded.length > 0) {
    const n = folded.length;
    lines.push(`<details><summary>${n} documentation ${n === 1 ? "change" : "changes"} (annotation)</summary>`, "");
    for (const c of folded) lines.push(withWhere ? `- ${c.where}: ${c.message}` : `- ${c.message}`);
    lines.push("", "</details>", "");
  }
  return lines;
}

function label(classification: string): string {
  return classification === "breaking" ? "**breaking**" : classification;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
