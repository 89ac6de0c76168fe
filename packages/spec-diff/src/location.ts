/** Locations as the reports print them. */
import type { Change, Location } from "./types.js";

/** `spec/rev-c.yaml:131:7` (with `origin/main:` in front for a file read at a git ref). */
export function formatLocation(location: Location, options: { column?: boolean } = {}): string {
  const column = options.column === false ? "" : `:${location.column}`;
  return `${location.ref ? `${location.ref}:` : ""}${location.file}:${location.line}${column}`;
}

/** `spec/rev-b.yaml:120 → spec/rev-c.yaml:131`, or `spec/rev-c.yaml:120 → 131` when the file is the same. */
export function formatChangeLocations(
  change: Pick<Change, "before" | "after">,
  options: { column?: boolean } = {},
): string {
  const { before, after } = change;
  if (before && after) {
    if (before.file === after.file) {
      const tail = options.column === false ? `${after.line}` : `${after.line}:${after.column}`;
      return `${formatLocation(before, options)} → ${after.ref ? formatLocation(after, options) : tail}`;
    }
    return `${formatLocation(before, options)} → ${formatLocation(after, options)}`;
  }
  const only = before ?? after;
  return only ? formatLocation(only, options) : "";
}

/** Every change of a report, document-level first. */
export function allChanges(report: { document: Change[]; operations: Array<{ changes: Change[] }> }): Change[] {
  return [...report.document, ...report.operations.flatMap((o) => o.changes)];
}
