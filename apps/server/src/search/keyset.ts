/**
 * Keyset paging shared by every search (runs, experiments, registered models, model versions).
 *
 * A search orders its rows by a list of sort columns, each a NOT NULL SQL expression (nullable
 * values are split into a "missing rank" column and a COALESCEd value column by the caller) and
 * ending with a unique column, so the order is total. A page token holds the text form of the
 * last returned row's sort values; the next page asks for rows strictly after that tuple. A page
 * is therefore stable under concurrent inserts and deletes: rows are neither repeated nor skipped
 * because of rows added or removed before the cursor. Every order is keyset-paged; no order falls
 * back to an offset.
 *
 * Values travel as PostgreSQL's text output of each column (`CAST(expr AS text)`) and come back as
 * `CAST(? AS <type>)`, so bigint and double precision values round-trip exactly (PostgreSQL 12+
 * prints the shortest exact form of a double, NaN and Infinity included), and string values
 * compare under the column expression's collation exactly as ORDER BY sorts them.
 *
 * The page token that carries the values is page-token.ts's keyset token.
 */
import type { Knex } from "knex";

/** The SQL type of a sort column; decides how a token value is validated and cast back. */
export type SortType = "bigint" | "integer" | "double precision" | "text" | "bpchar";

export interface SortColumn {
  /** A NOT NULL SQL expression without bindings (column references and constants only). */
  sql: string;
  descending: boolean;
  type: SortType;
}

export interface SqlFragment {
  sql: string;
  bindings: string[];
}

/** `CAST(c0 AS text) AS k0, ...` for the SELECT list. */
export function sortKeySelections(columns: readonly SortColumn[]): string[] {
  return columns.map((column, i) => `CAST(${column.sql} AS text) AS k${i}`);
}

/** The ORDER BY list. */
export function orderByList(columns: readonly SortColumn[]): string {
  return columns.map((column) => `${column.sql} ${column.descending ? "DESC" : "ASC"}`).join(", ");
}

/** Reads the cursor values back from a row selected with `sortKeySelections`. */
export function sortKeysOf(row: Record<string, unknown>, columns: readonly SortColumn[]): string[] {
  return columns.map((_, i) => {
    const value = row[`k${i}`];
    if (typeof value !== "string") throw new Error(`sort key k${i} is not a string (got ${typeof value})`);
    return value;
  });
}

/**
 * Rows strictly after the cursor in the order of `columns`:
 *   c0 >= v0 AND (c0 > v0 OR (c0 = v0 AND (c1 > v1 OR (c1 = v1 AND ... cn > vn))))
 * (with < / <= for descending columns). The leading bound on c0 is redundant; it lets an index on
 * c0 start the scan at the cursor.
 */
export function keysetCondition(columns: readonly SortColumn[], values: readonly string[]): SqlFragment {
  if (columns.length === 0 || columns.length !== values.length)
    throw new Error("keysetCondition: columns and values differ");
  const bindings: string[] = [];
  const param = (i: number) => `CAST(? AS ${columns[i].type})`;
  const build = (i: number): string => {
    const column = columns[i];
    const strict = column.descending ? "<" : ">";
    bindings.push(values[i]);
    if (i === columns.length - 1) return `${column.sql} ${strict} ${param(i)}`;
    const head = `${column.sql} ${strict} ${param(i)}`;
    bindings.push(values[i]);
    const equal = `${column.sql} = ${param(i)}`;
    return `(${head} OR (${equal} AND ${build(i + 1)}))`;
  };
  const first = columns[0];
  const lead = `${first.sql} ${first.descending ? "<=" : ">="} ${param(0)}`;
  bindings.push(values[0]);
  const rest = build(0);
  return { sql: `${lead} AND ${rest}`, bindings };
}

/** The keyset part of one page's query. */
export interface KeysetPart {
  /** The sort columns, selected as k0..kn (for the page token). */
  selected: readonly SortColumn[];
  /** The ORDER BY, to which the cursor's values belong; `selected` when omitted. */
  ordered?: readonly SortColumn[];
  /** The last row's sort values of the previous page, if any. */
  cursor: readonly string[] | undefined;
  limit: number;
}

/** Adds the sort keys k0..kn, the rows after the cursor, the ORDER BY and the limit to `query`. */
export function withKeysetPage(knex: Knex, query: Knex.QueryBuilder, part: KeysetPart): Knex.QueryBuilder {
  const ordered = part.ordered ?? part.selected;
  query.select(knex.raw(sortKeySelections(part.selected).join(", ")));
  if (part.cursor) {
    const after = keysetCondition(ordered, part.cursor);
    query.whereRaw(after.sql, after.bindings);
  }
  return query.orderByRaw(orderByList(ordered)).limit(part.limit);
}
