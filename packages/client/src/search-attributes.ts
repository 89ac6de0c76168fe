// The run attributes a runs/search filter or order_by may name (`attributes.<name>`), for filter
// completion and column pickers. The list is spec/ext.yaml's RunSearchAttribute enum, which the
// server's filter parser is typed by as well; the checks below fail the build when they part.
import type { components } from "./generated/ext.js";

export type RunSearchAttribute = components["schemas"]["RunSearchAttribute"];

export const RUN_SEARCH_ATTRIBUTES = [
  "status",
  "run_name",
  "start_time",
  "end_time",
  "run_id",
  "artifact_uri",
] as const satisfies readonly RunSearchAttribute[];

/** Attributes of the spec missing from the list: none, or the assignment below fails to compile. */
type Unlisted = Exclude<RunSearchAttribute, (typeof RUN_SEARCH_ATTRIBUTES)[number]>;
const everyAttributeListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyAttributeListed;
