/**
 * registered-models/search and model-versions/search (revision C): filters compiled to SQL from
 * the same AST as runs and experiments (filter-parser.ts: parseRegisteredModelFilter,
 * parseModelVersionFilter), order_by columns (order-by.ts), and keyset paging (keyset.ts,
 * page-token.ts). As revision C says, `LIKE` and `ILIKE` on a registry field mean "contains": the
 * text is wrapped in `%...%` (`%` and `_` inside stay wildcards).
 *
 * Tag comparisons (`tags.<key>` / `tag.<key>`, keys as stored) are MLflow's: `=`, `!=`, `LIKE` and
 * `ILIKE` on the tag's value, the pattern used as written, and a comparison holds only when the item
 * has the tag, so `tags.k != 'v'` skips items without k. The one exception is MLflow's prompt
 * marker (PROMPT_MARKER_TAG): an item without it is an ordinary model, so it matches
 * `!= 'true'` and `= 'false'` (as MLflow's stores answer the filter its 3.x clients add to every
 * registered-models/search).
 *
 * Column expressions come only from the fixed tables below; every value from the request is a bind
 * parameter. Text sort columns compare with the "C" collation, so the order (and keyset paging) is
 * the same on every database. A page token is bound to the search's scope (e.g.
 * `registered-models/search` or `registered-models/list`) and its order.
 */
import type { Knex } from "knex";
import { PROMPT_MARKER_TAG } from "../domain/system-tags.js";
import { invalidParameter } from "../errors.js";
import type { ModelVersionRow, RegisteredModelRow } from "../store/registry/rows.js";
import type { FilterAst, RegistryAttribute, StringOperator } from "./ast.js";
import { type SortColumn, type SortType, type SqlFragment, withKeysetPage } from "./keyset.js";
import { orderSignature, parseOrderBy, withTieBreaks, type SortKey } from "./order-by.js";
import { decodePageToken, keysetPage, queryFingerprint } from "./page-token.js";
import {
  compileFilterWith,
  type FilterComparison,
  type KeyedTable,
  keyExists,
  stringComparison,
} from "./sql-fragments.js";

/** What a registry filter reads: the SQL column of each field, and the table of the items' tags. */
interface RegistryFilterColumns {
  columns: Readonly<Partial<Record<RegistryAttribute, string>>>;
  tags: KeyedTable;
}

/** What one registry search may order by and filter on, and the SQL of each. */
interface RegistrySearchSpec<Column extends string> {
  /** What messages call the search's items. */
  name: string;
  table: string;
  /** The order_by columns, in the order messages list them: their SQL and type. */
  sortColumns: Readonly<Record<Column, { sql: string; type: SortType }>>;
  /** Other names of sort columns. */
  aliases?: Readonly<Record<string, Column>>;
  /** Appended to the user's order (when the user did not name their column), so that every order is total. */
  tieBreaks: readonly SortKey<Column>[];
  /** The SQL of each filter field and tag. */
  filterColumns: RegistryFilterColumns;
}

export type ModelSortColumn = "name" | "last_updated_timestamp";

/** The sort columns that registered_models and model_versions share. */
const NAME_AND_UPDATE_COLUMNS: RegistrySearchSpec<ModelSortColumn>["sortColumns"] = {
  name: { sql: `"name" COLLATE "C"`, type: "text" },
  last_updated_timestamp: { sql: `"last_updated_timestamp"`, type: "bigint" },
};

/** Ties are broken by name ascending; names are unique, so this makes the order total. */
const REGISTERED_MODELS: RegistrySearchSpec<ModelSortColumn> = {
  name: "registered models",
  table: "registered_models",
  sortColumns: NAME_AND_UPDATE_COLUMNS,
  tieBreaks: [{ column: "name", ascending: true }],
  filterColumns: {
    columns: { name: `"name"` },
    tags: { table: "registered_model_tags", owner: "x.name = registered_models.name" },
  },
};

export type VersionSortColumn = "name" | "version" | "stage" | "last_updated_timestamp" | "creation_timestamp";

/**
 * MLflow 2.x's clients sort versions by `version_number`. Ties: last_updated_timestamp descending,
 * name ascending, version descending ((name, version) is unique).
 */
const MODEL_VERSIONS: RegistrySearchSpec<VersionSortColumn> = {
  name: "model versions",
  table: "model_versions",
  sortColumns: {
    ...NAME_AND_UPDATE_COLUMNS,
    version: { sql: `"version"`, type: "integer" },
    stage: { sql: `"current_stage" COLLATE "C"`, type: "text" },
    creation_timestamp: { sql: `"creation_timestamp"`, type: "bigint" },
  },
  aliases: { version_number: "version" },
  tieBreaks: [
    { column: "last_updated_timestamp", ascending: false },
    { column: "name", ascending: true },
    { column: "version", ascending: false },
  ],
  filterColumns: {
    columns: { name: `"name"`, run_id: `"run_id"`, source_path: `"source"` },
    tags: {
      table: "model_version_tags",
      owner: "x.name = model_versions.name AND x.version = model_versions.version",
    },
  },
};

export interface RegistrySearchOptions {
  /** What the page token is bound to, e.g. `registered-models/search`. */
  scope: string;
  /** The parsed filter (none: every row). */
  filter?: FilterAst;
  /** order_by items as the client sent them, e.g. `name DESC`. */
  orderBy?: readonly string[];
  /** Checked by the caller. */
  maxResults: number;
  pageToken?: string;
}

export interface RegistrySearchResult<Row> {
  rows: Row[];
  /** Present only when more rows follow. */
  nextPageToken?: string;
}

async function searchRegistry<Row, Column extends string>(
  knex: Knex,
  spec: RegistrySearchSpec<Column>,
  options: RegistrySearchOptions,
): Promise<RegistrySearchResult<Row>> {
  const names = Object.keys(spec.sortColumns) as Column[];
  const keys = parseOrderBy(options.orderBy ?? [], names, { aliases: spec.aliases, scope: spec.name });
  const order = withTieBreaks(keys, spec.tieBreaks);
  const columns: SortColumn[] = order.map((key) => ({ ...spec.sortColumns[key.column], descending: !key.ascending }));
  const fingerprint = queryFingerprint(options.scope, null);
  const signature = orderSignature(order);
  const cursor = options.pageToken ? decodePageToken(options.pageToken, fingerprint, columns, signature) : undefined;

  const query = knex(spec.table).select(`${spec.table}.*`);
  if (options.filter) {
    const where = compileRegistryFilter(options.filter, spec.filterColumns);
    query.whereRaw(where.sql, where.bindings);
  }
  withKeysetPage(knex, query, { selected: columns, cursor, limit: options.maxResults + 1 });
  const rows = (await query) as Array<Row & Record<string, unknown>>;
  const { page, ...next } = keysetPage(rows, options.maxResults, fingerprint, columns, signature);
  return { rows: page, ...next };
}

/** One page of registered_models rows (with extra sort-key columns k0..kn, which the records ignore). */
export function searchRegisteredModelRows(
  knex: Knex,
  options: RegistrySearchOptions,
): Promise<RegistrySearchResult<RegisteredModelRow>> {
  return searchRegistry(knex, REGISTERED_MODELS, options);
}

/** One page of model_versions rows (with extra sort-key columns k0..kn, which the records ignore). */
export function searchModelVersionRows(
  knex: Knex,
  options: RegistrySearchOptions,
): Promise<RegistrySearchResult<ModelVersionRow>> {
  return searchRegistry(knex, MODEL_VERSIONS, options);
}

/** Compiles a registry filter AST to a boolean SQL expression over the fields' columns and the items' tags. */
export function compileRegistryFilter(ast: FilterAst, fields: RegistryFilterColumns): SqlFragment {
  return compileFilterWith(ast, (comparison) => compileRegistryComparison(comparison, fields));
}

function compileRegistryComparison(ast: FilterComparison, fields: RegistryFilterColumns): SqlFragment {
  if (ast.type !== "string")
    throw invalidParameter("Invalid filter: only string comparisons apply to the model registry");
  if (ast.field.entity === "tag") return tagComparison(ast.field.key, ast.operator, ast.value, fields.tags);
  const key = ast.field.key as RegistryAttribute;
  const column =
    ast.field.entity === "attribute" && Object.hasOwn(fields.columns, key) ? fields.columns[key] : undefined;
  if (!column) throw invalidParameter(`Invalid filter: '${String(ast.field.key)}' cannot be searched here`);
  const contains =
    ast.operator === "LIKE" || ast.operator === "ILIKE" || ast.operator === "NOT LIKE" || ast.operator === "NOT ILIKE";
  return stringComparison(column, ast.operator, contains ? `%${ast.value}%` : ast.value);
}

/** A tag comparison (see the module comment): the item has the tag and its value satisfies the operator. */
function tagComparison(key: string, operator: StringOperator, value: string, tags: KeyedTable): SqlFragment {
  const holds = keyExists(tags, key, stringComparison("x.value", operator, value));
  if (!(key === PROMPT_MARKER_TAG && absentMarkerMatches(operator, value))) return holds;
  const absent = keyExists(tags, key);
  return { sql: `(${holds.sql} OR NOT ${absent.sql})`, bindings: [...holds.bindings, ...absent.bindings] };
}

/** Whether an item without the prompt marker (an ordinary model) satisfies `marker <operator> value`. */
const absentMarkerMatches = (operator: StringOperator, value: string): boolean =>
  (operator === "!=" && value === "true") || (operator === "=" && value === "false");
