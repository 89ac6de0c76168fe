/** Checks of the options both searches share. */
import { invalidParameter, invalidValue } from "../errors.js";
import type { ViewType } from "../domain/records.js";

const LIFECYCLE: Record<ViewType, string | undefined> = {
  ACTIVE_ONLY: "active",
  DELETED_ONLY: "deleted",
  ALL: undefined,
};

/** max_results must be an integer in 1..limit. */
export function checkMaxResults(maxResults: number, limit: number): void {
  if (!Number.isSafeInteger(maxResults) || maxResults < 1 || maxResults > limit) {
    throw invalidValue("max_results", maxResults);
  }
}

export function checkViewType(viewType: ViewType): void {
  if (!Object.hasOwn(LIFECYCLE, viewType)) throw invalidParameter(`Invalid view type '${String(viewType)}'`);
}

/** The lifecycle_stage a view type selects; undefined for ALL. */
export function lifecycleStageOf(viewType: ViewType): string | undefined {
  return LIFECYCLE[viewType];
}
