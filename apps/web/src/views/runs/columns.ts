// Columns of the runs table: the fixed ones, and the metric/param/tag columns picked by the user.
import type { Run } from "@tracker-ml/client";

export type KeyKind = "metrics" | "params" | "tags";

export const BASE_COLUMNS = ["name", "experiment", "status", "user", "start", "duration", "source"] as const;
export type BaseColumn = (typeof BASE_COLUMNS)[number];

export const BASE_LABELS: Record<BaseColumn, string> = {
  name: "Run name",
  experiment: "Experiment",
  status: "Status",
  user: "User",
  start: "Start time",
  duration: "Duration",
  source: "Source",
};

export interface KeyColumn {
  kind: KeyKind;
  key: string;
}

/** "metrics.acc" -> { kind: "metrics", key: "acc" }; undefined for anything else. */
export function parseKeyColumn(id: string): KeyColumn | undefined {
  const match = /^(metrics|params|tags)\.(.+)$/.exec(id);
  return match ? { kind: match[1] as KeyKind, key: match[2]! } : undefined;
}

/** The metric, param and tag keys present in the runs, sorted, system tags (`<ns>.`) left out. */
export function availableKeys(runs: readonly Run[], namespace: string): Record<KeyKind, string[]> {
  const sets: Record<KeyKind, Set<string>> = { metrics: new Set(), params: new Set(), tags: new Set() };
  for (const run of runs) {
    for (const m of run.data.metrics) sets.metrics.add(m.key);
    for (const p of run.data.params) sets.params.add(p.key);
    for (const t of run.data.tags) if (!t.key.startsWith(`${namespace}.`)) sets.tags.add(t.key);
  }
  const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { metrics: sorted(sets.metrics), params: sorted(sets.params), tags: sorted(sets.tags) };
}

/** The chosen columns with `id` switched on or off, order of choice kept. */
export function toggleColumn(columns: readonly string[], id: string): string[] {
  return columns.includes(id) ? columns.filter((c) => c !== id) : [...columns, id];
}

/** A key as the search grammar wants it: bare when it is a plain identifier, else in backticks. */
export function quoteKey(key: string): string {
  return /^[A-Za-z_][\w.]*$/.test(key) ? key : `\`${key}\``;
}

/** The server-side `order_by` for a column, or undefined when it cannot be sorted by the server. */
export function orderByFor(column: string, descending: boolean, namespace: string): string | undefined {
  const dir = descending ? " DESC" : " ASC";
  const attribute: Partial<Record<string, string>> = {
    name: "attributes.run_name",
    status: "attributes.status",
    start: "attributes.start_time",
    duration: "attributes.end_time",
    user: `tags.${quoteKey(`${namespace}.user`)}`,
    source: `tags.${quoteKey(`${namespace}.source.name`)}`,
  };
  if (attribute[column]) return attribute[column] + dir;
  const key = parseKeyColumn(column);
  return key ? `${key.kind}.${quoteKey(key.key)}${dir}` : undefined;
}

/** The value a run has in a key column, as text (metrics: the latest value). */
export function keyValue(run: Run, column: KeyColumn): string | number | undefined {
  if (column.kind === "metrics") return run.data.metrics.find((m) => m.key === column.key)?.value;
  const list = column.kind === "params" ? run.data.params : run.data.tags;
  return list.find((item) => item.key === column.key)?.value;
}
