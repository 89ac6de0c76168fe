// The logged models of one experiment, one page of them (the newest first), for the UI's lists.
import type { LoggedModel } from "@tracker-ml/client";
import { api } from "../../api/client";

/** Models shown at most in one list; `more` says when the experiment has further ones. */
export const LIST_LIMIT = 100;

export interface ModelList {
  models: LoggedModel[];
  more: boolean;
}

/** The experiment's models, only those of `sourceRunId` when given. */
export async function loggedModelsOf(experimentId: string, sourceRunId?: string): Promise<ModelList> {
  const page = await api().searchLoggedModels({
    experiment_ids: [experimentId],
    max_results: LIST_LIMIT,
    ...(sourceRunId === undefined ? {} : { filter: `source_run_id = '${sourceRunId.replace(/'/g, "")}'` }),
  });
  return { models: page.models ?? [], more: Boolean(page.next_page_token) };
}
