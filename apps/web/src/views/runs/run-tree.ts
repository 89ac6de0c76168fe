// Nested runs: children listed right under their parent (the `<ns>.parentRunId` tag), with a depth.
import type { Run } from "@tracker-ml/client";

export interface TreeRow {
  run: Run;
  depth: number;
  childCount: number;
}

/**
 * Orders runs so each child follows its parent (keeping the server's order among siblings).
 * A child whose parent is not among `runs` stays at the top level. Cycles cannot loop.
 */
export function nestRuns(runs: readonly Run[], parentTag: string): TreeRow[] {
  const byId = new Map(runs.map((run) => [run.info.run_id, run]));
  const children = new Map<string, Run[]>();
  const roots: Run[] = [];
  for (const run of runs) {
    const parent = run.data.tags.find((t) => t.key === parentTag)?.value;
    if (parent && parent !== run.info.run_id && byId.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(run);
      children.set(parent, list);
    } else roots.push(run);
  }
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  const visit = (run: Run, depth: number) => {
    if (seen.has(run.info.run_id)) return;
    seen.add(run.info.run_id);
    const kids = children.get(run.info.run_id) ?? [];
    rows.push({ run, depth, childCount: kids.length });
    for (const kid of kids) visit(kid, depth + 1);
  };
  for (const run of roots) visit(run, 0);
  // Runs only reachable through a cycle of parents: shown at the top level.
  for (const run of runs) visit(run, 0);
  return rows;
}
