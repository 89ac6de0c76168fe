/** The terminal view: one block per operation, one line per change and its lines, coloured on a TTY. */
import { allChanges, formatChangeLocations, formatLocation } from "./location.js";
import type { Change, Report } from "./types.js";

/** SGR codes (open, close) of the few styles used. */
const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;
type Style = keyof typeof STYLES | Array<keyof typeof STYLES>;

function styleText(style: Style, text: string): string {
  const styles = Array.isArray(style) ? style : [style];
  return styles.reduceRight((inner, s) => `\u001b[${STYLES[s][0]}m${inner}\u001b[${STYLES[s][1]}m`, text);
}

export interface TextOptions {
  /** Colours (ANSI escapes); see `wantsColour`. */
  colour?: boolean;
}

/** Colours when the stream is a terminal, unless NO_COLOR is set; FORCE_COLOR forces them. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

export function renderText(report: Report, options: TextOptions = {}): string {
  const paint = (style: Style, text: string) => (options.colour ? styleText(style, text) : text);
  const { summary } = report;
  const out: string[] = [paint("bold", `API changes: ${report.from} → ${report.to}`)];
  const total = summary.breaking + summary["non-breaking"] + summary.annotation;
  if (total === 0) return `${out[0]}\nNo changes.\n`;
  const acknowledged = summary.acknowledged > 0 ? ` (${summary.acknowledged} acknowledged)` : "";
  out.push(
    `${paint(summary.breaking > summary.acknowledged ? ["bold", "red"] : "bold", `${summary.breaking} breaking`)}${acknowledged}, ` +
      `${summary["non-breaking"]} non-breaking, ${summary.annotation} annotation. ` +
      `Operations: ${summary.operationsAdded} added, ${summary.operationsRemoved} removed, ${summary.operationsChanged} changed.`,
  );
  for (const move of report.prefixMoves) {
    out.push(`The path prefix moved: ${move.from} → ${move.to} (${move.operations} operations).`);
  }
  const width = Math.max(12, ...allChanges(report).map((c) => c.where.length));
  const block = (title: string, changes: Change[]) => {
    const documentation = changes.filter((c) => c.kind === "documentation" && c.classification === "annotation");
    const shown = changes.filter((c) => !documentation.includes(c));
    out.push("", paint("bold", title));
    for (const c of shown) {
      out.push(`  ${tag(c, paint)}  ${c.where.padEnd(width)}  ${c.message}`);
      const lines = formatChangeLocations(c);
      const indent = " ".repeat(2 + 25 + 2 + width + 2);
      if (lines) out.push(`${indent}${paint("dim", lines)}`);
      if (c.acknowledged) {
        const at = c.acknowledged.at ? ` (${formatLocation(c.acknowledged.at)})` : "";
        out.push(`${indent}${paint("yellow", `acknowledged: ${c.acknowledged.reason}`)}${paint("dim", at)}`);
      }
    }
    if (documentation.length > 0) {
      const n = documentation.length;
      out.push(`  ${paint("dim", `+ ${n} documentation ${n === 1 ? "change" : "changes"} (annotation)`)}`);
    }
  };
  for (const op of report.operations) {
    const status = op.status === "changed" ? "" : ` (${op.status})`;
    block(`${op.key}${op.operationId ? ` ${op.operationId}` : ""}${status}`, op.changes);
  }
  if (report.document.length > 0) block("document", report.document);
  return `${out.join("\n")}\n`;
}

function tag(change: Change, paint: (style: Style, text: string) => string): string {
  if (change.classification === "breaking") {
    return change.acknowledged
      ? paint("yellow", "breaking (acknowledged)".padEnd(25))
      : paint(["bold", "red"], "BREAKING".padEnd(25));
  }
  if (change.classification === "non-breaking") return paint("green", "non-breaking".padEnd(25));
  return paint("cyan", "annotation".padEnd(25));
}
