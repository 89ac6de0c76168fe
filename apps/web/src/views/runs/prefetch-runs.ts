// The runs page's first requests, sent as the app starts (main.tsx), in parallel with the session
// check and the first render instead of after them: the page's own identical requests take their
// answers (api/early-answers.ts). In the charts view its code loads meanwhile too, and the line
// cards expected on screen ask for their histories as soon as the runs and keys are in.
import { earlyApi, namespace } from "../../api/client";
import { searchStateOf } from "../../url/search-state";
import { prefetchFirstScreen } from "./charts-view/early-histories";
import { readTab } from "./charts-view/view-state";
import { runQueryOf } from "./run-query";

/** Sends the runs page's first requests early when `where` (the window's location) is a runs page. */
export function prefetchRunsPage(where: { pathname: string; search: string }): void {
  if (where.pathname !== "/runs") return;
  const state = searchStateOf(new URLSearchParams(where.search));
  const query = runQueryOf(state, namespace());
  if (query.experimentIds.length === 0) return;
  const client = earlyApi();
  // Failures are the page's to report: it sends its own request when an early one failed.
  const ignore = () => {};
  const runs = client
    .searchRunsColumns(query.experimentIds, query)
    .pages()
    .next()
    .then((page) => (page.done ? [] : page.value.items));
  const keys = client.listRunKeys(query.experimentIds);
  runs.catch(ignore);
  keys.catch(ignore);
  for (const id of query.experimentIds) client.getExperiment(id).catch(ignore);
  if (readTab(state) === "charts") {
    import("./charts-view/charts-view").catch(ignore);
    prefetchFirstScreen(state, runs, keys, { width: window.innerWidth, height: window.innerHeight });
  }
}
