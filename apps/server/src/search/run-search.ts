/**
 * runs/search: compiles a filter AST and order_by to one parameterized query over `runs`.
 *
 * Filter compilation (every key and value is a binding; SQL text is constant):
 * - metrics: `EXISTS (SELECT 1 FROM latest_metrics m WHERE m.run_uuid = runs.run_uuid AND m.key = ?
 *   AND m.value <op> ?)`, on revision C's latest value; a stored NaN satisfies only `!=`.
 * - params / tags: the same shape over `params` / `tags` (`p.value = ?`, `LIKE ?`, `IN (?, ...)`).
 * - attributes: columns of `runs` (run_id is runs.run_uuid); end_time, which may be NULL, is
 *   `(runs.end_time IS NOT NULL AND runs.end_time <op> ?)`.
 * So a comparison holds only when the key exists, `!=` / NOT LIKE / NOT IN included (MLflow's
 * semantics), `NOT <comparison>` holds for runs without the key, and logic stays two-valued.
 *
 * Order: the order_by terms, then start_time DESC (unless ordered by start_time), then run_uuid
 * ASC (unless ordered by run_id); with no order_by that is the whole order. Strings (params,
 * tags, run_name, status, artifact_uri) sort in the "C" collation (by code point) on every
 * database, so PGlite and PostgreSQL agree whatever their default collation. Runs without the
 * ordered metric / param / tag (or without end_time) sort last in both directions; runs whose
 * metric is NaN sort after the numbers and before the missing ones, in both directions (MLflow).
 * Ordering by a metric / param / tag LEFT JOINs its table with the key bound. When the first term
 * is a metric / param / tag, the page is read bucket by bucket (value present, NaN, missing; see
 * bucketedPage), so the database walks the (key, value) index in order and stops at the page size.
 *
 * Paging: keyset for every order (see keyset.ts and page-token.ts); the token is bound to the experiment ids,
 * filter, order_by and view type.
 */
import type { Knex } from "knex";
import { invalidParameter } from "../errors.js";
import type { ViewType } from "../domain/records.js";
import type { FilterAst, FilterField, OrderTerm, RunAttribute } from "./ast.js";
import { parseRunOrderBy } from "./order-by.js";
import { renameFilterTags, renameOrderTags, type TagKeyRename } from "./tag-keys.js";
import { type SortColumn, type SqlFragment, withKeysetPage } from "./keyset.js";
import { decodePageToken, keysetPage, queryFingerprint } from "./page-token.js";
import { DATASET_CONTEXT_TAG } from "../domain/system-tags.js";
import { checkMaxResults, checkViewType, lifecycleStageOf } from "./search-options.js";
import {
  bigintComparison,
  compileFilterWith,
  doubleComparison,
  type FilterComparison,
  inList,
  NAN,
  stringComparison,
  textBinding,
} from "./sql-fragments.js";

/** The largest max_results runs/search accepts (MLflow's limit; the specification asks for at least 50000). */
export const MAX_RUN_SEARCH_RESULTS = 50_000;

export interface RunSearchOptions {
  experimentIds: readonly number[];
  /** A parsed filter (parseRunFilter, or andedExpressionsToFilter for revisions A/B). */
  filter?: FilterAst;
  /** order_by clauses as the client sent them, e.g. `metrics.loss DESC`. */
  orderBy?: readonly string[];
  viewType: ViewType;
  maxResults: number;
  pageToken?: string;
  /** Renames the tag keys of the filter and order_by to their stored names (system tags). */
  tagKey?: TagKeyRename;
}

export interface RunSearchResult {
  /** Matching run ids, in order. */
  runIds: string[];
  /** Present only when more runs follow. */
  nextPageToken?: string;
}

interface RunColumn {
  sql: string;
  nullable: boolean;
  type: "text" | "bpchar" | "bigint";
}

const RUN_COLUMNS: Record<RunAttribute, RunColumn> = {
  status: { sql: "runs.status", nullable: false, type: "text" },
  run_name: { sql: "runs.run_name", nullable: false, type: "text" },
  start_time: { sql: "runs.start_time", nullable: false, type: "bigint" },
  end_time: { sql: "runs.end_time", nullable: true, type: "bigint" },
  run_id: { sql: "runs.run_uuid", nullable: false, type: "bpchar" },
  artifact_uri: { sql: "runs.artifact_uri", nullable: false, type: "text" },
};

/** Strings sort bytewise (the "C" collation) on every database, as the registry's searches do. */
const C = 'COLLATE "C"';

const KEYED_TABLES = { metric: "latest_metrics", param: "params", tag: "tags" } as const;

function runColumn(field: FilterField): RunColumn {
  const column = field.entity === "attribute" ? RUN_COLUMNS[field.key as RunAttribute] : undefined;
  if (!column) throw invalidParameter(`Invalid filter: '${String(field.key)}' is not a run attribute`);
  return column;
}

/** EXISTS over the keyed table of `field` with `condition` on its value column `x.value`. */
function keyedExists(field: FilterField, condition: (valueSql: string) => SqlFragment): SqlFragment {
  if (field.entity === "attribute" || field.entity === "dataset") throw new Error(`keyedExists: ${field.entity}`);
  const table = KEYED_TABLES[field.entity];
  if (!table) throw invalidParameter("Invalid filter: unknown entity");
  const inner = condition("x.value");
  return {
    sql: `EXISTS (SELECT 1 FROM ${table} x WHERE x.run_uuid = runs.run_uuid AND x.key = ? AND ${inner.sql})`,
    bindings: [textBinding(field.key, "key"), ...inner.bindings],
  };
}

/**
 * EXISTS over the run's inputs (MLflow 2.4+ dataset tracking): `dataset.name` and `dataset.digest`
 * compare the input datasets' columns, `dataset.context` the inputs' `mlflow.data.context` tag.
 */
function datasetExists(
  field: Extract<FilterField, { entity: "dataset" }>,
  condition: (valueSql: string) => SqlFragment,
): SqlFragment {
  if (field.key === "context") {
    const inner = condition("t.value");
    return {
      sql: `EXISTS (SELECT 1 FROM run_input_tags t WHERE t.run_uuid = runs.run_uuid AND t.key = '${DATASET_CONTEXT_TAG}' AND ${inner.sql})`,
      bindings: inner.bindings,
    };
  }
  const inner = condition(field.key === "name" ? "d.name" : "d.digest");
  return {
    sql: `EXISTS (SELECT 1 FROM run_inputs i JOIN datasets d ON d.dataset_uuid = i.dataset_uuid WHERE i.run_uuid = runs.run_uuid AND ${inner.sql})`,
    bindings: inner.bindings,
  };
}

const guardNullable = (column: RunColumn, fragment: SqlFragment): SqlFragment =>
  column.nullable ? { sql: `(${column.sql} IS NOT NULL AND ${fragment.sql})`, bindings: fragment.bindings } : fragment;

/** Compiles a run filter AST to a boolean SQL expression over the table `runs`. */
export function compileRunFilter(ast: FilterAst): SqlFragment {
  return compileFilterWith(ast, compileRunComparison);
}

function compileRunComparison(ast: FilterComparison): SqlFragment {
  switch (ast.type) {
    case "numeric": {
      if (ast.field.entity === "metric")
        return keyedExists(ast.field, (v) => doubleComparison(v, ast.operator, ast.value));
      const column = runColumn(ast.field);
      if (column.type !== "bigint") throw invalidParameter(`Invalid filter: ${ast.field.key} is not numeric`);
      return guardNullable(column, bigintComparison(column.sql, ast.operator, ast.value));
    }
    case "string": {
      if (ast.field.entity === "dataset")
        return datasetExists(ast.field, (v) => stringComparison(v, ast.operator, ast.value));
      if (ast.field.entity === "param" || ast.field.entity === "tag") {
        return keyedExists(ast.field, (v) => stringComparison(v, ast.operator, ast.value));
      }
      const column = runColumn(ast.field);
      if (column.type === "bigint") throw invalidParameter(`Invalid filter: ${ast.field.key} is numeric`);
      return stringComparison(column.sql, ast.operator, ast.value);
    }
    case "in": {
      if (ast.field.entity === "dataset") return datasetExists(ast.field, (v) => inList(v, ast.negated, ast.values));
      if (ast.field.entity === "param" || ast.field.entity === "tag") {
        return keyedExists(ast.field, (v) => inList(v, ast.negated, ast.values));
      }
      const column = runColumn(ast.field);
      if (ast.field.key !== "run_id") throw invalidParameter(`Invalid filter: IN is not allowed for ${ast.field.key}`);
      return inList(column.sql, ast.negated, ast.values);
    }
    default:
      throw invalidParameter("Invalid filter: unknown node");
  }
}

interface RunOrder {
  columns: SortColumn[];
  joins: SqlFragment[];
}

/** Sort columns (all NOT NULL, ending with the unique run_uuid) and the joins they need. */
export function runSortColumns(terms: readonly OrderTerm[]): RunOrder {
  const columns: SortColumn[] = [];
  const joins: SqlFragment[] = [];
  let orderedByStartTime = false;
  for (const [i, term] of terms.entries()) {
    const descending = !term.ascending;
    const field = term.field;
    if (field.entity === "attribute") {
      const column = runColumn(field);
      if (column.nullable) {
        columns.push({ sql: `CASE WHEN ${column.sql} IS NULL THEN 1 ELSE 0 END`, descending: false, type: "integer" });
        columns.push({ sql: `COALESCE(${column.sql}, 0)`, descending, type: column.type });
      } else {
        columns.push({
          sql: column.type === "text" ? `${column.sql} ${C}` : column.sql,
          descending,
          type: column.type,
        });
      }
      if (field.key === "start_time") orderedByStartTime = true;
      // run_uuid is unique: later terms cannot change the order.
      if (field.key === "run_id") return { columns, joins };
      continue;
    }
    if (field.entity === "dataset")
      throw invalidParameter("Invalid order_by: runs cannot be ordered by dataset fields");
    const alias = `o${i}`;
    const table = KEYED_TABLES[field.entity];
    joins.push({
      sql: `LEFT JOIN ${table} AS ${alias} ON ${alias}.run_uuid = runs.run_uuid AND ${alias}.key = ?`,
      bindings: [textBinding(field.key, "order_by key")],
    });
    if (field.entity === "metric") {
      columns.push({
        sql: `CASE WHEN ${alias}.value IS NULL THEN 2 WHEN ${alias}.value = ${NAN} THEN 1 ELSE 0 END`,
        descending: false,
        type: "integer",
      });
      columns.push({ sql: `COALESCE(${alias}.value, 0)`, descending, type: "double precision" });
    } else {
      columns.push({ sql: `CASE WHEN ${alias}.value IS NULL THEN 1 ELSE 0 END`, descending: false, type: "integer" });
      columns.push({ sql: `COALESCE(${alias}.value, '') ${C}`, descending, type: "text" });
    }
  }
  if (!orderedByStartTime) columns.push({ sql: "runs.start_time", descending: true, type: "bigint" });
  columns.push({ sql: "runs.run_uuid", descending: false, type: "bpchar" });
  return { columns, joins };
}

/** Searches runs; returns the ids of one page, in order, and the token of the next page. */
export async function searchRuns(knex: Knex, options: RunSearchOptions): Promise<RunSearchResult> {
  checkMaxResults(options.maxResults, MAX_RUN_SEARCH_RESULTS);
  checkViewType(options.viewType);
  const experimentIds = [...new Set(options.experimentIds)].sort((a, b) => a - b);
  for (const id of experimentIds) {
    if (!Number.isSafeInteger(id) || id < 0) throw invalidParameter(`Invalid experiment id '${String(id)}'`);
  }
  const rename = options.tagKey;
  const parsedTerms = parseRunOrderBy(options.orderBy);
  const terms = rename ? renameOrderTags(parsedTerms, rename) : parsedTerms;
  const ast = options.filter && rename ? renameFilterTags(options.filter, rename) : options.filter;
  const filter = ast ? compileRunFilter(ast) : undefined;
  const { columns, joins } = runSortColumns(terms);
  const fingerprint = queryFingerprint("runs", {
    experimentIds,
    filter: ast ?? null,
    orderBy: terms,
    viewType: options.viewType,
  });
  const cursor = options.pageToken ? decodePageToken(options.pageToken, fingerprint, columns) : undefined;
  if (experimentIds.length === 0) return { runIds: [] };

  const base: PageQuery = { knex, experimentIds, stage: lifecycleStageOf(options.viewType), filter, columns, joins };
  const limit = options.maxResults + 1;
  const rows =
    terms.length > 0 && terms[0].field.entity !== "attribute" && terms[0].field.entity !== "dataset"
      ? await bucketedPage(base, terms[0].field.entity, cursor, limit)
      : await pageQuery(base, { joins, orderColumns: columns, cursor, limit });
  const { page, ...next } = keysetPage(rows, options.maxResults, fingerprint, columns);
  return { runIds: page.map((row) => String(row.run_uuid)), ...next };
}

interface PageQuery {
  knex: Knex;
  experimentIds: number[];
  stage: string | undefined;
  filter: SqlFragment | undefined;
  /** Every sort column (selected as k0..kn, so page tokens are the same whichever query ran). */
  columns: SortColumn[];
  joins: SqlFragment[];
}

interface PagePart {
  joins: SqlFragment[];
  /** Extra condition of this part (the missing-value bucket's `o0.run_uuid IS NULL`). */
  where?: string;
  /** The ORDER BY of this part, whose columns the keyset condition also uses, and the cursor values. */
  orderColumns: SortColumn[];
  cursor: string[] | undefined;
  limit: number;
}

/** One SELECT of runs: scope, filter, joins, keyset condition, order and limit. */
async function pageQuery(base: PageQuery, part: PagePart): Promise<Array<Record<string, unknown>>> {
  const { knex } = base;
  const query = knex.queryBuilder().from("runs").select("runs.run_uuid");
  for (const join of part.joins) query.joinRaw(join.sql, join.bindings);
  query.whereIn("runs.experiment_id", base.experimentIds);
  if (base.stage) query.where("runs.lifecycle_stage", base.stage);
  if (base.filter) query.whereRaw(base.filter.sql, base.filter.bindings);
  if (part.where) query.whereRaw(part.where);
  withKeysetPage(knex, query, {
    selected: base.columns,
    ordered: part.orderColumns,
    cursor: part.cursor,
    limit: part.limit,
  });
  return (await query) as Array<Record<string, unknown>>;
}

/**
 * Ordered first by a metric, param or tag: the order's leading "missing rank" column splits the
 * runs into buckets (value present; for metrics NaN; missing), and each bucket is one query whose
 * ORDER BY starts with the plain value column, so PostgreSQL can walk the (key, value) index in
 * order and stop after `limit` rows instead of sorting every matching run. Buckets are read in
 * order until the page is full; the rows, their sort keys and the page tokens are exactly those
 * of the single query over the whole order.
 */
async function bucketedPage(
  base: PageQuery,
  entity: "metric" | "param" | "tag",
  cursor: string[] | undefined,
  limit: number,
): Promise<Array<Record<string, unknown>>> {
  const [first, ...otherJoins] = base.joins;
  const [, valueColumn, ...rest] = base.columns;
  const inner = (condition: string): SqlFragment => ({
    sql: `${first.sql.replace(/^LEFT JOIN /, "JOIN ")}${condition}`,
    bindings: first.bindings,
  });
  const present: SortColumn = { ...valueColumn, sql: entity === "metric" ? "o0.value" : `o0.value ${C}` };
  const buckets: Array<{ rank: number; join: SqlFragment; where?: string; columns: SortColumn[]; cursorFrom: number }> =
    [
      // A metric's numbers (NaN excluded by `< NaN`, which an index range can use), or a param's / tag's value.
      {
        rank: 0,
        join: inner(entity === "metric" ? ` AND o0.value < ${NAN}` : ""),
        columns: [present, ...rest],
        cursorFrom: 1,
      },
      ...(entity === "metric"
        ? [{ rank: 1, join: inner(` AND o0.value = ${NAN}`), columns: rest, cursorFrom: 2 }]
        : []),
      { rank: entity === "metric" ? 2 : 1, join: first, where: "o0.run_uuid IS NULL", columns: rest, cursorFrom: 2 },
    ];
  const cursorRank = cursor ? Number(cursor[0]) : -Infinity;
  const rows: Array<Record<string, unknown>> = [];
  for (const bucket of buckets) {
    if (rows.length >= limit) break;
    if (bucket.rank < cursorRank) continue;
    const page = await pageQuery(base, {
      joins: [bucket.join, ...otherJoins],
      where: bucket.where,
      orderColumns: bucket.columns,
      cursor: cursor && bucket.rank === cursorRank ? cursor.slice(bucket.cursorFrom) : undefined,
      limit: limit - rows.length,
    });
    rows.push(...page);
  }
  return rows;
}
