// The runs table grouped: a header item per group (its run count and the min / max / mean of
// each metric column over the group's loaded runs), followed by the group's rows unless collapsed.
import type { Run } from "@tracker-ml/client";
import { summarize, type Summary } from "./aggregate";
import { groupItems, groupValue, type GroupBy } from "./group-by";

export interface GroupItem {
  kind: "group";
  value: string;
  count: number;
  collapsed: boolean;
  /** By column id (`metrics.acc`): the summary of that metric's latest values in the group. */
  summaries: ReadonlyMap<string, Summary | undefined>;
}

export type TableItem<R> = GroupItem | { kind: "row"; row: R };

/** The latest value of `metrics.<key>` in a run. */
function latest(run: Run, column: string): number | undefined {
  const key = column.slice("metrics.".length);
  return run.data.metrics.find((m) => m.key === key)?.value;
}

/**
 * The table's items: the rows as they are without grouping; with it, per group a header and
 * (unless its value is in `collapsed`) its rows. `metricColumns` are the column ids summarised.
 */
export function tableItems<R>(
  rows: readonly R[],
  runOf: (row: R) => Run,
  groupBy: GroupBy | undefined,
  collapsed: ReadonlySet<string>,
  metricColumns: readonly string[],
): TableItem<R>[] {
  if (!groupBy) return rows.map((row) => ({ kind: "row", row }));
  return groupItems(rows, (row) => groupValue(runOf(row), groupBy)).flatMap((group) => {
    const runs = group.items.map(runOf);
    const header: GroupItem = {
      kind: "group",
      value: group.value,
      count: group.items.length,
      collapsed: collapsed.has(group.value),
      summaries: new Map(metricColumns.map((c) => [c, summarize(runs.map((r) => latest(r, c)))])),
    };
    return header.collapsed ? [header] : [header, ...group.items.map((row) => ({ kind: "row", row }) as TableItem<R>)];
  });
}

/** Collapsed groups from the URL's `fold` list (values URI-encoded, so commas in them survive). */
export function readCollapsed(list: readonly string[]): Set<string> {
  return new Set(
    list.flatMap((v) => {
      try {
        return [decodeURIComponent(v)];
      } catch {
        return [];
      }
    }),
  );
}

export function writeCollapsed(values: Iterable<string>): string[] {
  return [...values].map(encodeURIComponent);
}
