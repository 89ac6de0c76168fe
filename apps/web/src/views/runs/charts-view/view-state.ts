// The charts view's state in the runs page's URL: `tab=charts`, `cards`, `pin`, `hide`, `top`, and
// the grouping (`group`, `fold`) that the table shares.
import type { SearchState } from "../../../url/search-state";
import { parseGroupBy } from "../grouping/group-by";
import { cardColumnKeys, readCards } from "./card-spec";

export type RunsTab = "table" | "charts";

export function readTab(state: SearchState): RunsTab {
  return state.get("tab") === "charts" ? "charts" : "table";
}

/**
 * Keys the runs must carry besides the table's columns: the grouping's param or tag, and in the
 * charts view the latest values that bar, scatter and parallel-coordinate cards read.
 */
export function extraRunKeys(state: SearchState): { metrics: string[]; params: string[]; tags: string[] } {
  const groupBy = parseGroupBy(state.get("group"));
  const cards = readTab(state) === "charts" ? cardColumnKeys(readCards(state.list("cards"), [])) : undefined;
  const grouped = (kind: "params" | "tags") => (groupBy && groupBy.kind === kind ? [groupBy.key] : []);
  return {
    metrics: cards?.metrics ?? [],
    params: [...new Set([...(cards?.params ?? []), ...grouped("params")])],
    tags: grouped("tags"),
  };
}

/** `base` and `extra` without repeats, `base`'s order first. */
export function union(base: readonly string[], extra: readonly string[]): string[] {
  return [...new Set([...base, ...extra])];
}
