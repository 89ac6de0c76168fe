// The runs page's search as its URL states it: what RunsPage fetches, and what the page's early
// requests (prefetch-runs.ts) fetch before it renders, so that the two are the same requests.
import { viewOf } from "../../components/view-select";
import { decodeDatasetChoice, withDatasetFilter } from "../../datasets/datasets";
import type { SearchState } from "../../url/search-state";
import { extraRunKeys, union } from "./charts-view/view-state";
import { orderByFor, parseKeyColumn } from "./columns";
import { parseGroupBy } from "./grouping/group-by";
import type { RunQuery } from "./use-run-pages";

/** Runs a page of the runs table (and of the charts view) holds. */
export const RUN_PAGE_SIZE = 200;

/** The optional Datasets column's id in `cols`. */
export const DATASETS_COLUMN = "datasets";

/** The first page's search of the runs page at this URL state, in namespace `ns`. */
export function runQueryOf(state: SearchState, ns: string): RunQuery {
  const columns = state.list("cols");
  const orderBy = orderByFor(state.get("sort") ?? "start", state.get("asc") !== "1", ns);
  const chosen = columns.map(parseKeyColumn).filter((c) => c !== undefined);
  const keysOf = (kind: string) => chosen.filter((c) => c.kind === kind).map((c) => c.key);
  const extra = extraRunKeys(state);
  const filter = withDatasetFilter(state.get("filter") ?? "", decodeDatasetChoice(state.get("ds")));
  return {
    experimentIds: state.list("e"),
    filter: filter || undefined,
    orderBy: orderBy ? [orderBy] : undefined,
    viewType: viewOf(state).viewType,
    pageSize: RUN_PAGE_SIZE,
    metricKeys: union(keysOf("metrics"), extra.metrics),
    paramKeys: union(keysOf("params"), extra.params),
    tagKeys: union(keysOf("tags"), extra.tags),
    // Grouping by dataset needs each run's datasets, as the datasets column does.
    includeInputs: columns.includes(DATASETS_COLUMN) || parseGroupBy(state.get("group"))?.kind === "dataset",
  };
}
