/**
 * Small builders of parameterized SQL shared by the run and experiment compilers. Only constant
 * SQL text is ever concatenated; every user-supplied key or value is a `?` binding.
 */
import { invalidParameter } from "../errors.js";
import type { FilterAst, NumericOperator, StringOperator } from "./ast.js";
import type { SqlFragment } from "./keyset.js";

export const NUMERIC_SQL: Record<NumericOperator, string> = {
  "=": "=",
  "!=": "<>",
  ">": ">",
  ">=": ">=",
  "<": "<",
  "<=": "<=",
};
export const STRING_SQL: Record<StringOperator, string> = {
  "=": "=",
  "!=": "<>",
  LIKE: "LIKE",
  ILIKE: "ILIKE",
  "NOT LIKE": "NOT LIKE",
  "NOT ILIKE": "NOT ILIKE",
};

export const NAN = "CAST('NaN' AS double precision)";

/** A string that will be bound: PostgreSQL text cannot hold NUL. */
export function textBinding(value: string, what: string): string {
  if (typeof value !== "string") throw invalidParameter(`Invalid filter: the ${what} must be a string`);
  if (value.includes("\u0000")) throw invalidParameter(`Invalid filter: the ${what} contains a NUL character`);
  return value;
}

/**
 * Why a LIKE pattern would make PostgreSQL fail, if it would: the default escape character is a
 * backslash, and a pattern must not end with an unescaped one.
 */
export function likePatternProblem(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") {
      if (i === pattern.length - 1)
        return "a LIKE pattern must not end with the escape character '\\' (write '\\\\' for a backslash)";
      i++;
    }
  }
  return undefined;
}

export function checkedLikePattern(pattern: string): string {
  const problem = likePatternProblem(pattern);
  if (problem) throw invalidParameter(`Invalid filter: ${problem}`);
  return pattern;
}

/** `expr <op> value` for a string comparison; the value bound. */
export function stringComparison(expr: string, operator: StringOperator, value: string): SqlFragment {
  const sqlOperator = STRING_SQL[operator];
  if (!sqlOperator) throw invalidParameter(`Invalid filter: unknown operator '${String(operator)}'`);
  const bound = textBinding(value, "value");
  if (operator !== "=" && operator !== "!=") checkedLikePattern(bound);
  return { sql: `${expr} ${sqlOperator} ?`, bindings: [bound] };
}

/** `expr [NOT] IN (?, ...)`. */
export function inList(expr: string, negated: boolean, values: readonly string[]): SqlFragment {
  if (!Array.isArray(values) || values.length === 0)
    throw invalidParameter("Invalid filter: an IN list must hold at least one value");
  const bindings = values.map((v) => textBinding(v, "value"));
  return { sql: `${expr} ${negated ? "NOT IN" : "IN"} (${bindings.map(() => "?").join(", ")})`, bindings };
}

function numberText(value: number): string {
  if (typeof value !== "number" || Number.isNaN(value))
    throw invalidParameter("Invalid filter: a numeric comparison needs a number");
  return String(value);
}

/**
 * `expr <op> value` for a double precision expression. IEEE semantics for NaN values: a stored
 * NaN satisfies only `!=` (PostgreSQL would otherwise order NaN above every number).
 */
export function doubleComparison(expr: string, operator: NumericOperator, value: number): SqlFragment {
  const sqlOperator = NUMERIC_SQL[operator];
  if (!sqlOperator) throw invalidParameter(`Invalid filter: unknown operator '${String(operator)}'`);
  const nanGuard = operator === ">" || operator === ">=" ? ` AND ${expr} <> ${NAN}` : "";
  return { sql: `${expr} ${sqlOperator} CAST(? AS double precision)${nanGuard}`, bindings: [numberText(value)] };
}

/**
 * `expr <op> value` for a bigint expression. An integer value is bound as bigint (so indexes
 * apply); a fractional or huge value as numeric (exact comparison, no overflow).
 */
export function bigintComparison(expr: string, operator: NumericOperator, value: number): SqlFragment {
  const sqlOperator = NUMERIC_SQL[operator];
  if (!sqlOperator) throw invalidParameter(`Invalid filter: unknown operator '${String(operator)}'`);
  const type = Number.isSafeInteger(value) ? "bigint" : "numeric";
  return { sql: `${expr} ${sqlOperator} CAST(? AS ${type})`, bindings: [numberText(value)] };
}

/** A table of keyed values (tags) that belong to the searched row: its name and how its alias `x` matches the row. */
export interface KeyedTable {
  table: string;
  /** SQL over the alias `x` and the searched table, e.g. `x.experiment_id = experiments.experiment_id`. */
  owner: string;
}

/**
 * `EXISTS (SELECT 1 FROM <table> x WHERE <owner> AND x.key = ? [AND <condition>])`: the row has the
 * key (and its value satisfies the condition, written over `x.value`).
 */
export function keyExists(keyed: KeyedTable, key: string, condition?: SqlFragment): SqlFragment {
  return {
    sql: `EXISTS (SELECT 1 FROM ${keyed.table} x WHERE ${keyed.owner} AND x.key = ?${condition ? ` AND ${condition.sql}` : ""})`,
    bindings: [textBinding(key, "key"), ...(condition?.bindings ?? [])],
  };
}

/** Joins fragments with AND / OR, parenthesised. */
export function combine(fragments: readonly SqlFragment[], connective: "AND" | "OR"): SqlFragment {
  if (fragments.length === 0) throw invalidParameter(`Invalid filter: ${connective} needs operands`);
  if (fragments.length === 1) return fragments[0];
  return {
    sql: `(${fragments.map((f) => f.sql).join(` ${connective} `)})`,
    bindings: fragments.flatMap((f) => f.bindings),
  };
}

/** A leaf of a filter: one comparison (numeric, string or IN). */
export type FilterComparison = Exclude<FilterAst, { type: "and" | "or" | "not" }>;

/**
 * Compiles a filter AST: AND / OR / NOT here (NOT as `NOT (...)`), each comparison with
 * `compileComparison` (the per-table part of the run, experiment and registry compilers).
 */
export function compileFilterWith(
  ast: FilterAst,
  compileComparison: (comparison: FilterComparison) => SqlFragment,
): SqlFragment {
  switch (ast.type) {
    case "and":
    case "or":
      return combine(
        ast.operands.map((operand) => compileFilterWith(operand, compileComparison)),
        ast.type === "and" ? "AND" : "OR",
      );
    case "not": {
      const inner = compileFilterWith(ast.operand, compileComparison);
      return { sql: `NOT (${inner.sql})`, bindings: inner.bindings };
    }
    default:
      return compileComparison(ast);
  }
}
