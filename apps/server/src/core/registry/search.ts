import type { FilterAst } from "../../search/index.js";
import type { SortKey } from "./order-by.js";
import type { SortValue, SortValueType } from "./page-token.js";

/**
 * What registered-models/search and model-versions/search accept (spec rev-c.yaml) besides the
 * filter (whose fields and operators the search engine knows, search/filter-parser.ts): order_by columns, the tie-breaks that make every order total,
 * and the type of each sort column's value in a page token.
 */

export type ModelSortColumn = "name" | "last_updated_timestamp";

export const MODEL_SORT_COLUMNS: readonly ModelSortColumn[] = ["name", "last_updated_timestamp"];
/** Ties are broken by name ascending; names are unique, so this makes the order total. */
export const MODEL_TIE_BREAKS: readonly SortKey<ModelSortColumn>[] = [{ column: "name", ascending: true }];
export const MODEL_SORT_TYPES: Readonly<Record<ModelSortColumn, SortValueType>> = {
  name: "text",
  last_updated_timestamp: "integer",
};

export type VersionSortColumn = "name" | "version" | "stage" | "last_updated_timestamp" | "creation_timestamp";

export const VERSION_SORT_COLUMNS: readonly VersionSortColumn[] = [
  "name",
  "version",
  "stage",
  "last_updated_timestamp",
  "creation_timestamp",
];
/** Other names of sort columns: MLflow 2.x's clients sort versions by `version_number`. */
export const VERSION_SORT_ALIASES: Readonly<Record<string, VersionSortColumn>> = { version_number: "version" };
/** Ties: last_updated_timestamp descending, name ascending, version descending ((name, version) is unique). */
export const VERSION_TIE_BREAKS: readonly SortKey<VersionSortColumn>[] = [
  { column: "last_updated_timestamp", ascending: false },
  { column: "name", ascending: true },
  { column: "version", ascending: false },
];
export const VERSION_SORT_TYPES: Readonly<Record<VersionSortColumn, SortValueType>> = {
  name: "text",
  version: "integer",
  stage: "text",
  last_updated_timestamp: "integer",
  creation_timestamp: "integer",
};

/** A search as the store runs it: the parsed filter (none: every row), a total order, where to start, how many rows. */
export interface KeysetQuery<SortColumn extends string> {
  filter?: FilterAst;
  order: SortKey<SortColumn>[];
  /** Sort values of the last row of the previous page; rows strictly after them are returned. */
  after?: SortValue[];
  limit: number;
}
