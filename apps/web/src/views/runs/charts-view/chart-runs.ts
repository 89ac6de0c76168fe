// Which runs the charts view draws: the selected runs (or the first `limit` loaded ones), plus the
// pinned runs wherever they are, minus the runs hidden with their eye button.
import type { Run } from "@tracker-ml/client";

/** Choices for how many of the loaded runs the charts show when none is selected. */
export const RUN_LIMITS = [10, 20, 50, 100] as const;
export const DEFAULT_RUN_LIMIT = 10;
/** The server samples histories of at most this many runs per request. */
export const MAX_CHART_RUNS = 100;

export interface ChartRunsInput {
  /** The loaded runs, in the table's order. */
  runs: readonly Run[];
  selected: readonly string[];
  pinned: readonly string[];
  hidden: readonly string[];
  limit: number;
}

export interface ChartRun {
  run: Run;
  pinned: boolean;
  hidden: boolean;
}

/**
 * The runs listed beside the charts (pinned first, then the selection or the first `limit` runs),
 * each marked pinned or hidden. Pinned runs stay listed and drawn whatever the selection, limit or
 * hidden list says; at most MAX_CHART_RUNS in all.
 */
export function chartRuns({ runs, selected, pinned, hidden, limit }: ChartRunsInput): ChartRun[] {
  const pins = new Set(pinned);
  const hides = new Set(hidden);
  const chosen = new Set(selected);
  const pinnedRuns = runs.filter((r) => pins.has(r.info.run_id));
  const rest = runs.filter((r) => !pins.has(r.info.run_id));
  const others = chosen.size ? rest.filter((r) => chosen.has(r.info.run_id)) : rest.slice(0, limit);
  return [...pinnedRuns, ...others].slice(0, MAX_CHART_RUNS).map((run) => {
    const isPinned = pins.has(run.info.run_id);
    return { run, pinned: isPinned, hidden: !isPinned && hides.has(run.info.run_id) };
  });
}

/** The run limit from the URL's `top` (one of RUN_LIMITS, else the default). */
export function readRunLimit(text: string | undefined): number {
  const n = Number(text);
  return (RUN_LIMITS as readonly number[]).includes(n) ? n : DEFAULT_RUN_LIMIT;
}

/** `list` with `id` added or removed. */
export function toggled(list: readonly string[], id: string, on: boolean): string[] {
  const without = list.filter((x) => x !== id);
  return on ? [...without, id] : without;
}
