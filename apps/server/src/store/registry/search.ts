import type { Knex } from "knex";
import type { SortKey } from "../../core/registry/order-by.js";
import type { SortValue } from "../../core/registry/page-token.js";
import type { KeysetQuery, ModelSortColumn, VersionSortColumn } from "../../core/registry/search.js";
import { compileRegistryFilter, type FilterAst, type RegistryAttribute } from "../../search/index.js";
import type { ModelVersionRow, RegisteredModelRow } from "./rows.js";

/**
 * Registry searches compiled to parameterized SQL. Column expressions come only from the fixed
 * tables below; every value from the request is a bind parameter. Text sort columns compare with
 * the "C" collation, so the order (and keyset paging) is the same on every database.
 */

const MODEL_SORT_SQL: Readonly<Record<ModelSortColumn, string>> = {
  name: `"name" COLLATE "C"`,
  last_updated_timestamp: `"last_updated_timestamp"`,
};
const MODEL_FILTER_SQL: Readonly<Partial<Record<RegistryAttribute, string>>> = { name: `"name"` };

const VERSION_SORT_SQL: Readonly<Record<VersionSortColumn, string>> = {
  name: `"name" COLLATE "C"`,
  version: `"version"`,
  stage: `"current_stage" COLLATE "C"`,
  last_updated_timestamp: `"last_updated_timestamp"`,
  creation_timestamp: `"creation_timestamp"`,
};
const VERSION_FILTER_SQL: Readonly<Record<RegistryAttribute, string>> = {
  name: `"name"`,
  run_id: `"run_id"`,
  source_path: `"source"`,
};

function applyFilter(
  query: Knex.QueryBuilder,
  columns: Readonly<Partial<Record<RegistryAttribute, string>>>,
  filter: FilterAst | undefined,
): void {
  if (!filter) return;
  const where = compileRegistryFilter(filter, columns as Readonly<Record<RegistryAttribute, string>>);
  query.whereRaw(where.sql, where.bindings as Knex.Value[]);
}

/** ORDER BY the keys and, for a later page, only rows strictly after `after` in that order. */
function applyKeysetOrder<C extends string>(
  query: Knex.QueryBuilder,
  sql: Readonly<Record<C, string>>,
  order: SortKey<C>[],
  after?: SortValue[],
): void {
  if (after) {
    const alternatives: string[] = [];
    const bindings: SortValue[] = [];
    order.forEach((key, i) => {
      const parts: string[] = [];
      for (let j = 0; j < i; j += 1) {
        parts.push(`${sql[order[j].column]} = ?`);
        bindings.push(after[j]);
      }
      parts.push(`${sql[key.column]} ${key.ascending ? ">" : "<"} ?`);
      bindings.push(after[i]);
      alternatives.push(`(${parts.join(" AND ")})`);
    });
    query.whereRaw(`(${alternatives.join(" OR ")})`, bindings);
  }
  query.orderByRaw(order.map((k) => `${sql[k.column]} ${k.ascending ? "ASC" : "DESC"}`).join(", "));
}

export async function searchRegisteredModelRows(
  db: Knex,
  q: KeysetQuery<ModelSortColumn>,
): Promise<RegisteredModelRow[]> {
  const query = db("registered_models").select("*");
  applyFilter(query, MODEL_FILTER_SQL, q.filter);
  applyKeysetOrder(query, MODEL_SORT_SQL, q.order, q.after);
  return (await query.limit(q.limit)) as RegisteredModelRow[];
}

export async function searchModelVersionRows(db: Knex, q: KeysetQuery<VersionSortColumn>): Promise<ModelVersionRow[]> {
  const query = db("model_versions").select("*");
  applyFilter(query, VERSION_FILTER_SQL, q.filter);
  applyKeysetOrder(query, VERSION_SORT_SQL, q.order, q.after);
  return (await query.limit(q.limit)) as ModelVersionRow[];
}

export const modelSortValue = (row: RegisteredModelRow, column: ModelSortColumn): SortValue =>
  column === "name" ? row.name : Number(row.last_updated_timestamp);

export function versionSortValue(row: ModelVersionRow, column: VersionSortColumn): SortValue {
  switch (column) {
    case "name":
      return row.name;
    case "version":
      return Number(row.version);
    case "stage":
      return row.current_stage;
    case "last_updated_timestamp":
      return Number(row.last_updated_timestamp);
    case "creation_timestamp":
      return Number(row.creation_timestamp);
  }
}
