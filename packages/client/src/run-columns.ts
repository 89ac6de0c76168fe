// Run searches for views that show a few columns (ext operations searchRunsColumns, listRunKeys).
import { ClientCore } from "./client-core.js";
import type { Run } from "./entities.js";
import type { components } from "./generated/ext.js";
import { Paginated } from "./pagination.js";
import { expectData } from "./response.js";
import { runSearchBody, type SearchRunsOptions } from "./tracking.js";
import { fromWireRun } from "./wire.js";

export type RunKeys = components["schemas"]["RunKeys"];
/** A run with its inputs (datasets, model inputs) when runs/search-columns was asked for them. */
export type RunWithInputs = Run & { inputs?: components["schemas"]["RunInputs"] };

export interface SearchRunsColumnsOptions extends SearchRunsOptions {
  /** Metric keys each run carries (latest values); none when omitted. */
  metricKeys?: readonly string[];
  paramKeys?: readonly string[];
  /** Tag keys besides the system tags, which always come. */
  tagKeys?: readonly string[];
  /** Each run also carries `inputs`: its datasets (with their context) and the logged models it used. */
  includeInputs?: boolean;
}

export class RunColumnsClient extends ClientCore {
  /** runs/search returning only the chosen metric, param and tag keys of each run, over all pages. */
  searchRunsColumns(
    experimentIds: string | readonly string[],
    options: SearchRunsColumnsOptions = {},
  ): Paginated<RunWithInputs> {
    return new Paginated(async (pageToken) => {
      const body = {
        ...runSearchBody(experimentIds, options, pageToken),
        metric_keys: options.metricKeys ? [...options.metricKeys] : undefined,
        param_keys: options.paramKeys ? [...options.paramKeys] : undefined,
        tag_keys: options.tagKeys ? [...options.tagKeys] : undefined,
        include_inputs: options.includeInputs,
      };
      const data = await expectData(this.ext.POST("/api/2.0/tracker/runs/search-columns", { body }));
      const items = (data.runs ?? []).map(
        (run): RunWithInputs => (run.inputs ? { ...fromWireRun(run), inputs: run.inputs } : fromWireRun(run)),
      );
      return { items, nextPageToken: data.next_page_token };
    });
  }

  /** The distinct metric, param and tag keys of the experiments' runs (at most 5000 of each). */
  async listRunKeys(experimentIds: readonly string[]): Promise<RunKeys> {
    return expectData(
      this.ext.GET("/api/2.0/tracker/runs/keys", { params: { query: { experiment_ids: [...experimentIds] } } }),
    );
  }
}
