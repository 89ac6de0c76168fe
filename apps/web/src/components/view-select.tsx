import type { ViewType } from "@tracker-ml/client";
import type { SearchState } from "../url/search-state";

const VIEWS: Record<string, ViewType> = { active: "ACTIVE_ONLY", deleted: "DELETED_ONLY", all: "ALL" };

/** The lifecycle view in the URL's `view` parameter: `active` (the default, left out of the URL), `deleted` or `all`. */
export function viewOf(state: SearchState): { view: string; viewType: ViewType } {
  const view = state.get("view") ?? "active";
  return { view, viewType: VIEWS[view] ?? "ACTIVE_ONLY" };
}

/** The "Show active / deleted / all" picker of a list page, kept in the URL's `view` parameter. */
export function ViewSelect({ state }: { state: SearchState }) {
  return (
    <label>
      Show{" "}
      <select
        value={viewOf(state).view}
        onChange={(e) => state.set({ view: e.target.value === "active" ? undefined : e.target.value })}
      >
        <option value="active">active</option>
        <option value="deleted">deleted</option>
        <option value="all">all</option>
      </select>
    </label>
  );
}
