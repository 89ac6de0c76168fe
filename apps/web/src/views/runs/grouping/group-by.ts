// Grouping runs by a param, a tag or the datasets they used: `group=params.model`,
// `group=tags.team` or `group=dataset` in the URL.
import type { Run } from "@tracker-ml/client";

export type GroupBy = { kind: "params" | "tags"; key: string } | { kind: "dataset" };

/** The group of runs that lack the grouping key. */
export const NO_VALUE = "(none)";

export function parseGroupBy(text: string | undefined): GroupBy | undefined {
  if (!text) return undefined;
  if (text === "dataset") return { kind: "dataset" };
  const match = /^(params|tags)\.(.+)$/.exec(text);
  return match ? { kind: match[1] as "params" | "tags", key: match[2]! } : undefined;
}

export function formatGroupBy(groupBy: GroupBy): string {
  return groupBy.kind === "dataset" ? "dataset" : `${groupBy.kind}.${groupBy.key}`;
}

/** A dataset a run used, as MLflow's run inputs carry it (present when the client passes inputs on). */
interface DatasetInput {
  dataset?: { name?: string; digest?: string };
}
type RunWithInputs = Run & {
  inputs?: { dataset_inputs?: readonly DatasetInput[]; datasetInputs?: readonly DatasetInput[] };
};

/** The datasets of a run as `name@digest` labels, sorted and joined ("" when none). */
export function datasetLabel(run: Run): string {
  const inputs = (run as RunWithInputs).inputs;
  const list = inputs?.dataset_inputs ?? inputs?.datasetInputs ?? [];
  const labels = list.flatMap((d) => {
    const name = d.dataset?.name;
    if (!name) return [];
    const digest = d.dataset?.digest;
    return [digest ? `${name}@${digest.slice(0, 8)}` : name];
  });
  return [...new Set(labels)].sort().join(", ");
}

/** The group a run falls in: its param or tag value, or its datasets; NO_VALUE when it has none. */
export function groupValue(run: Run, groupBy: GroupBy): string {
  const value =
    groupBy.kind === "dataset"
      ? datasetLabel(run)
      : (groupBy.kind === "params" ? run.data.params : run.data.tags).find((p) => p.key === groupBy.key)?.value;
  return value === undefined || value === "" ? NO_VALUE : value;
}

export interface RunGroup<T> {
  value: string;
  items: T[];
}

/** Items partitioned by their group's value, groups in order of value (NO_VALUE last), items in their order. */
export function groupItems<T>(items: readonly T[], keyOf: (item: T) => string): RunGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const value = keyOf(item);
    const list = groups.get(value);
    if (list) list.push(item);
    else groups.set(value, [item]);
  }
  return [...groups.entries()]
    .map(([value, members]) => ({ value, items: members }))
    .sort((a, b) =>
      a.value === NO_VALUE
        ? 1
        : b.value === NO_VALUE
          ? -1
          : a.value.localeCompare(b.value, undefined, { numeric: true }),
    );
}
