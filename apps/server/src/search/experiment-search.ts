/**
 * experiments/search.
 *
 * Filter: `name`, `creation_time`, `last_update_time`, `experiment_id` (also with an
 * `attributes.` prefix) and `tags.<key>` (experiment tags), see filter-parser.ts. Tags compile to
 * `EXISTS (SELECT 1 FROM experiment_tags x WHERE x.experiment_id = experiments.experiment_id AND
 * x.key = ? AND x.value <op> ?)`, so `tags.k != 'v'` requires the tag to exist.
 *
 * Order (decision): each order_by term (name, experiment_id, creation_time, last_update_time;
 * default ASC), then experiment_id DESC as the tie-breaker unless experiment_id is already
 * ordered on ("ties are broken by experiment id descending"). With no order_by the order is
 * MLflow's default, `creation_time DESC, experiment_id ASC` (MLflow 1.30 SqlAlchemyStore and
 * FileStore both use `order_by or ["creation_time DESC", "experiment_id ASC"]`): newest first.
 * Names sort in the "C" collation (by code point) on every database.
 *
 * Paging: keyset for every order (see keyset.ts and page-token.ts); the token is bound to the filter, order_by and
 * view type.
 */
import type { Knex } from "knex";
import { invalidParameter } from "../errors.js";
import type { ViewType } from "../domain/records.js";
import type { ExperimentAttribute, FilterAst, FilterField, OrderTerm } from "./ast.js";
import { parseExperimentOrderBy } from "./order-by.js";
import { type SortColumn, type SqlFragment, withKeysetPage } from "./keyset.js";
import { decodePageToken, keysetPage, queryFingerprint } from "./page-token.js";
import { checkMaxResults, checkViewType, lifecycleStageOf } from "./search-options.js";
import {
  bigintComparison,
  compileFilterWith,
  type FilterComparison,
  inList,
  type KeyedTable,
  keyExists,
  stringComparison,
} from "./sql-fragments.js";

/** The largest max_results experiments/search accepts (MLflow's limit). */
export const MAX_EXPERIMENT_SEARCH_RESULTS = 50_000;

/** The order used when order_by is empty. */
export const DEFAULT_EXPERIMENT_ORDER: readonly string[] = ["creation_time DESC", "experiment_id ASC"];

export interface ExperimentSearchOptions {
  /** A parsed filter (parseExperimentFilter). */
  filter?: FilterAst;
  orderBy?: readonly string[];
  viewType: ViewType;
  maxResults: number;
  pageToken?: string;
}

const EXPERIMENT_COLUMNS: Record<ExperimentAttribute, { sql: string; type: "text" | "bigint" }> = {
  name: { sql: "experiments.name", type: "text" },
  experiment_id: { sql: "experiments.experiment_id", type: "bigint" },
  creation_time: { sql: "experiments.creation_time", type: "bigint" },
  last_update_time: { sql: "experiments.last_update_time", type: "bigint" },
};

function experimentColumn(field: FilterField): { sql: string; type: "text" | "bigint" } {
  const column = field.entity === "attribute" ? EXPERIMENT_COLUMNS[field.key as ExperimentAttribute] : undefined;
  if (!column) throw invalidParameter(`Invalid filter: '${String(field.key)}' is not an experiment attribute`);
  return column;
}

const EXPERIMENT_TAGS: KeyedTable = { table: "experiment_tags", owner: "x.experiment_id = experiments.experiment_id" };

const tagExists = (field: FilterField, inner: SqlFragment): SqlFragment => keyExists(EXPERIMENT_TAGS, field.key, inner);

/** Compiles an experiment filter AST to a boolean SQL expression over the table `experiments`. */
export function compileExperimentFilter(ast: FilterAst): SqlFragment {
  return compileFilterWith(ast, compileExperimentComparison);
}

function compileExperimentComparison(ast: FilterComparison): SqlFragment {
  switch (ast.type) {
    case "numeric": {
      const column = experimentColumn(ast.field);
      if (column.type !== "bigint" || ast.field.key === "experiment_id")
        throw invalidParameter(`Invalid filter: ${ast.field.key} is not numeric`);
      return bigintComparison(column.sql, ast.operator, ast.value);
    }
    case "string": {
      if (ast.field.entity === "tag") return tagExists(ast.field, stringComparison("x.value", ast.operator, ast.value));
      const column = experimentColumn(ast.field);
      if (ast.field.key === "experiment_id") {
        if (ast.operator !== "=" && ast.operator !== "!=")
          throw invalidParameter(`Invalid filter: '${ast.operator}' is not allowed for experiment_id`);
        return bigintComparison(column.sql, ast.operator, experimentIdValue(ast.value));
      }
      if (column.type !== "text") throw invalidParameter(`Invalid filter: ${ast.field.key} is numeric`);
      return stringComparison(column.sql, ast.operator, ast.value);
    }
    case "in": {
      if (ast.field.entity === "tag") return tagExists(ast.field, inList("x.value", ast.negated, ast.values));
      const column = experimentColumn(ast.field);
      if (ast.field.key !== "experiment_id")
        throw invalidParameter(`Invalid filter: IN is not allowed for ${ast.field.key}`);
      return inList(
        column.sql,
        ast.negated,
        ast.values.map((v) => String(experimentIdValue(v))),
      );
    }
    default:
      throw invalidParameter("Invalid filter: unknown node");
  }
}

function experimentIdValue(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw invalidParameter(`Invalid filter: '${value}' is not an experiment id`);
  return Number(value);
}

/** Sort columns (all NOT NULL, ending with the unique experiment_id). */
export function experimentSortColumns(terms: readonly OrderTerm[]): SortColumn[] {
  const effective = terms.length > 0 ? terms : parseExperimentOrderBy(DEFAULT_EXPERIMENT_ORDER);
  const columns: SortColumn[] = [];
  for (const term of effective) {
    const column = experimentColumn(term.field);
    columns.push({
      sql: column.type === "text" ? `${column.sql} COLLATE "C"` : column.sql,
      descending: !term.ascending,
      type: column.type,
    });
    if (term.field.key === "experiment_id") return columns;
  }
  columns.push({ sql: "experiments.experiment_id", descending: true, type: "bigint" });
  return columns;
}

/**
 * Searches experiments: the rows of one page, in order, with `columns` (an SQL select list over the
 * table `experiments`, with its bindings if any; e.g. the whole row and its tags, so that one
 * statement reads the page), and
 * the token of the next page (present only when more experiments follow).
 */
export async function searchExperimentRows(
  knex: Knex,
  options: ExperimentSearchOptions,
  columns: string | SqlFragment,
): Promise<{ rows: Array<Record<string, unknown>>; nextPageToken?: string }> {
  checkMaxResults(options.maxResults, MAX_EXPERIMENT_SEARCH_RESULTS);
  checkViewType(options.viewType);
  const ast = options.filter;
  const terms = parseExperimentOrderBy(options.orderBy);
  const filter = ast ? compileExperimentFilter(ast) : undefined;
  const sortColumns = experimentSortColumns(terms);
  const fingerprint = queryFingerprint("experiments", {
    filter: ast ?? null,
    orderBy: terms,
    viewType: options.viewType,
  });
  const cursor = options.pageToken ? decodePageToken(options.pageToken, fingerprint, sortColumns) : undefined;

  const selected = typeof columns === "string" ? { sql: columns, bindings: [] } : columns;
  const query = knex.queryBuilder().from("experiments").select(knex.raw(selected.sql, selected.bindings));
  const stage = lifecycleStageOf(options.viewType);
  if (stage) query.where("experiments.lifecycle_stage", stage);
  if (filter) query.whereRaw(filter.sql, filter.bindings);
  withKeysetPage(knex, query, { selected: sortColumns, cursor, limit: options.maxResults + 1 });

  const rows = (await query) as Array<Record<string, unknown>>;
  const { page, nextPageToken } = keysetPage(rows, options.maxResults, fingerprint, sortColumns);
  return { rows: page, ...(nextPageToken ? { nextPageToken } : {}) };
}
