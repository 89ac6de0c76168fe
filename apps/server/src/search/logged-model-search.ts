/**
 * logged-models/search (MLflow 3): the filter AST of parseLoggedModelFilter and MLflow's
 * structured order_by compiled to one SQL statement over logged_models.
 *
 * - `metrics.<k> <op> v` holds when the model has at least one point of k (any step, run or
 *   timestamp) that compares true and, when `datasets` are given, belongs to one of them.
 * - `params.<k>` and `tags.<k>` compare the model's param or tag; attributes compare the column.
 * - `datasets` alone (no metric comparison) keeps the models with a point on one of them.
 * - Deleted models are never returned.
 * - Order: each order_by item in turn, then `creation_timestamp_ms DESC, model_id ASC` unless
 *   already named. A metric orders by the model's latest point of it (latest timestamp, then
 *   step, then run id), restricted to a dataset when one is named; models without it come last
 *   in either direction, as do NULL attributes.
 */
import type { Knex } from "knex";
import { invalidParameter } from "../errors.js";
import type { FilterAst, FilterField, LoggedModelAttribute } from "./ast.js";
import type { SqlFragment } from "./keyset.js";
import { bigintComparison, combine, doubleComparison, inList, stringComparison } from "./sql-fragments.js";

/** MLflow's LoggedModelStatus numbers, by the names its search filter uses. */
export const LOGGED_MODEL_STATUS_BY_FILTER_NAME: Readonly<Record<string, number>> = {
  UNSPECIFIED: 0,
  PENDING: 1,
  READY: 2,
  FAILED: 3,
};

/** One entry of `datasets`: a dataset name, and a digest when only that version counts. */
export interface DatasetClause {
  name: string;
  digest?: string;
}

/** One order_by item as MLflow 3 sends it. */
export interface LoggedModelOrderItem {
  fieldName: string;
  ascending: boolean;
  datasetName?: string;
  datasetDigest?: string;
}

export interface LoggedModelSearchOptions {
  experimentIds: number[];
  filter?: FilterAst;
  datasets: DatasetClause[];
  orderBy: LoggedModelOrderItem[];
  limit: number;
  offset: number;
}

const COLUMNS: Record<LoggedModelAttribute, string> = {
  model_id: "m.model_id",
  experiment_id: "CAST(m.experiment_id AS text)",
  name: "m.name",
  artifact_location: "m.artifact_location",
  creation_timestamp_ms: "m.creation_timestamp_ms",
  last_updated_timestamp_ms: "m.last_updated_timestamp_ms",
  status: "m.status",
  model_type: "m.model_type",
  source_run_id: "m.source_run_id",
  status_message: "m.status_message",
};

/** Columns order_by may name without a prefix (MLflow: any column of logged_models, plus aliases). */
const ORDER_COLUMNS: Record<string, string> = {
  model_id: "m.model_id",
  experiment_id: "m.experiment_id",
  name: "m.name",
  artifact_location: "m.artifact_location",
  creation_timestamp_ms: "m.creation_timestamp_ms",
  creation_timestamp: "m.creation_timestamp_ms",
  creation_time: "m.creation_timestamp_ms",
  last_updated_timestamp_ms: "m.last_updated_timestamp_ms",
  last_updated_timestamp: "m.last_updated_timestamp_ms",
  status: "m.status",
  lifecycle_stage: "m.lifecycle_stage",
  model_type: "m.model_type",
  source_run_id: "m.source_run_id",
  status_message: "m.status_message",
};

function statusValue(value: string, shown: string): string {
  const code = Object.hasOwn(LOGGED_MODEL_STATUS_BY_FILTER_NAME, value)
    ? LOGGED_MODEL_STATUS_BY_FILTER_NAME[value]
    : undefined;
  if (code === undefined) throw invalidParameter(`Unknown model status in filter: ${shown}`);
  return String(code);
}

/** `(x.dataset_name = ? [AND x.dataset_digest = ?]) OR ...` over the point alias `x`; empty without datasets. */
function datasetCondition(datasets: readonly DatasetClause[]): SqlFragment | undefined {
  if (datasets.length === 0) return undefined;
  return combine(
    datasets.map((d) =>
      d.digest === undefined
        ? { sql: "x.dataset_name = ?", bindings: [d.name] }
        : { sql: "(x.dataset_name = ? AND x.dataset_digest = ?)", bindings: [d.name, d.digest] },
    ),
    "OR",
  );
}

/** EXISTS over the model's rows of one table (`x`), with a key and a condition on the value. */
function keyedExists(table: string, key: string, value: SqlFragment, extra?: SqlFragment): SqlFragment {
  return {
    sql: `EXISTS (SELECT 1 FROM ${table} x WHERE x.model_id = m.model_id AND x.key = ? AND ${value.sql}${extra ? ` AND ${extra.sql}` : ""})`,
    bindings: [key, ...value.bindings, ...(extra?.bindings ?? [])],
  };
}

const TABLES = { metric: "logged_model_metrics", param: "logged_model_params", tag: "logged_model_tags" } as const;

function compileComparison(ast: FilterAst, datasets: SqlFragment | undefined): SqlFragment {
  switch (ast.type) {
    case "and":
      return combine(
        ast.operands.map((a) => compileComparison(a, datasets)),
        "AND",
      );
    case "numeric":
      if (ast.field.entity === "metric")
        return keyedExists(
          TABLES.metric,
          ast.field.key,
          doubleComparison("x.value", ast.operator, ast.value),
          datasets,
        );
      return bigintComparison(attributeColumn(ast.field), ast.operator, ast.value);
    case "string":
      if (ast.field.entity === "param" || ast.field.entity === "tag")
        return keyedExists(
          TABLES[ast.field.entity],
          ast.field.key,
          stringComparison("x.value", ast.operator, ast.value),
        );
      if (ast.field.key === "status")
        return {
          sql: `m.status ${ast.operator === "=" ? "=" : "<>"} CAST(? AS smallint)`,
          bindings: [statusValue(ast.value, `'${ast.value}'`)],
        };
      return stringComparison(attributeColumn(ast.field), ast.operator, ast.value);
    case "in":
      if (ast.field.entity === "param" || ast.field.entity === "tag")
        return keyedExists(TABLES[ast.field.entity], ast.field.key, inList("x.value", ast.negated, ast.values));
      if (ast.field.key === "status") {
        const shown = `(${ast.values.map((v) => `'${v}'`).join(", ")}${ast.values.length === 1 ? "," : ""})`;
        return inList(
          "CAST(m.status AS text)",
          ast.negated,
          ast.values.map((v) => statusValue(v, shown)),
        );
      }
      return inList(attributeColumn(ast.field), ast.negated, ast.values);
    default:
      throw invalidParameter("Invalid filter: logged-model filters join comparisons with AND only");
  }
}

function attributeColumn(field: FilterField): string {
  if (field.entity !== "attribute") throw invalidParameter(`Invalid filter: unexpected ${field.entity} comparison`);
  return COLUMNS[field.key as LoggedModelAttribute];
}

const hasMetricComparison = (ast: FilterAst | undefined): boolean => {
  if (ast === undefined) return false;
  if (ast.type === "and" || ast.type === "or") return ast.operands.some(hasMetricComparison);
  if (ast.type === "not") return hasMetricComparison(ast.operand);
  return ast.field.entity === "metric";
};

/** The WHERE clause of a search (without `WHERE`). */
export function compileLoggedModelWhere(
  options: Omit<LoggedModelSearchOptions, "orderBy" | "limit" | "offset">,
): SqlFragment {
  const parts: SqlFragment[] = [
    {
      sql:
        options.experimentIds.length === 0
          ? "false"
          : `m.experiment_id IN (${options.experimentIds.map(() => "CAST(? AS bigint)").join(", ")})`,
      bindings: options.experimentIds.map(String),
    },
    { sql: "m.lifecycle_stage = 'active'", bindings: [] },
  ];
  const datasets = datasetCondition(options.datasets);
  if (options.filter) parts.push(compileComparison(options.filter, datasets));
  if (datasets && !hasMetricComparison(options.filter)) {
    parts.push({
      sql: `EXISTS (SELECT 1 FROM logged_model_metrics x WHERE x.model_id = m.model_id AND ${datasets.sql})`,
      bindings: datasets.bindings,
    });
  }
  return combine(parts, "AND");
}

/** One ORDER BY entry: the expression (missing values last) and its direction. */
function orderEntry(item: LoggedModelOrderItem): { column: string; fragment: SqlFragment } {
  const direction = item.ascending ? "ASC" : "DESC";
  const dot = item.fieldName.indexOf(".");
  if (dot === -1) {
    const column = Object.hasOwn(ORDER_COLUMNS, item.fieldName) ? ORDER_COLUMNS[item.fieldName] : undefined;
    if (column === undefined) throw invalidParameter(`Invalid order by field name: ${item.fieldName}`);
    return { column, fragment: { sql: `(${column} IS NULL), ${column} ${direction}`, bindings: [] } };
  }
  if (item.fieldName.slice(0, dot) !== "metrics")
    throw invalidParameter(`Invalid order by field name: ${item.fieldName}. Only metrics are supported.`);
  const bindings = [item.fieldName.slice(dot + 1)];
  let dataset = "";
  if (item.datasetName !== undefined) {
    dataset += " AND x.dataset_name = ?";
    bindings.push(item.datasetName);
  }
  if (item.datasetDigest !== undefined) {
    dataset += " AND x.dataset_digest = ?";
    bindings.push(item.datasetDigest);
  }
  const latest = `(SELECT x.value FROM logged_model_metrics x WHERE x.model_id = m.model_id AND x.key = ?${dataset}
                    ORDER BY x.timestamp DESC, x.step DESC, x.run_id ASC LIMIT 1)`;
  return {
    column: item.fieldName,
    fragment: { sql: `(${latest} IS NULL), ${latest} ${direction}`, bindings: [...bindings, ...bindings] },
  };
}

/** The ORDER BY list (without `ORDER BY`), with MLflow's tie-breaks. */
export function compileLoggedModelOrder(orderBy: readonly LoggedModelOrderItem[]): SqlFragment {
  const entries = orderBy.map(orderEntry);
  const named = new Set(entries.map((e) => e.column));
  if (!named.has("m.creation_timestamp_ms"))
    entries.push({
      column: "m.creation_timestamp_ms",
      fragment: { sql: "m.creation_timestamp_ms DESC", bindings: [] },
    });
  if (!named.has("m.model_id"))
    entries.push({ column: "m.model_id", fragment: { sql: "m.model_id ASC", bindings: [] } });
  return {
    sql: entries.map((e) => e.fragment.sql).join(", "),
    bindings: entries.flatMap((e) => e.fragment.bindings),
  };
}

/** The ids of one page of matching models, and whether more follow. */
export async function searchLoggedModelIds(
  knex: Knex,
  options: LoggedModelSearchOptions,
): Promise<{ ids: string[]; more: boolean }> {
  const where = compileLoggedModelWhere(options);
  const order = compileLoggedModelOrder(options.orderBy);
  const result = await knex.raw(
    `SELECT m.model_id FROM logged_models m WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
    [...where.bindings, ...order.bindings, options.limit + 1, options.offset],
  );
  const ids = (result.rows as Array<{ model_id: string }>).map((r) => r.model_id);
  return { ids: ids.slice(0, options.limit), more: ids.length > options.limit };
}
