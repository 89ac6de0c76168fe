/**
 * Revisions A and B: `anded_expressions` of runs/search, converted to the filter AST.
 *
 *   { metric:    { key, float?: { comparator, value }, double?: { comparator, value } } }
 *   { parameter: { key, string: { comparator, value } } }
 *
 * Metric comparators `>`, `>=`, `==`, `!=`, `<=`, `<` (on revision C's latest value, like the
 * filter string); the clause is `float` (A; deprecated in B) or `double` (B), exactly one of them.
 * Parameter comparators `==`, `!=` and `~`, which means "the value contains the text"
 * (case-sensitive substring; compiled to LIKE '%text%' with %, _ and \ escaped). A value may be a
 * JSON number or, as protobuf's JSON mapping allows, a numeric string ("1.5", "Infinity").
 * All expressions are ANDed. Every malformed shape is INVALID_PARAMETER_VALUE naming the index.
 */
import { invalidParameter } from "../errors.js";
import type { FilterAst, NumericOperator } from "./ast.js";

const METRIC_COMPARATORS: Record<string, NumericOperator> = {
  ">": ">",
  ">=": ">=",
  "==": "=",
  "!=": "!=",
  "<=": "<=",
  "<": "<",
};

/** Escapes LIKE's wildcards and its escape character, so the text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function fail(index: number, message: string): never {
  throw invalidParameter(`Invalid anded_expressions[${index}]: ${message}`);
}

function keyOf(index: number, clause: Record<string, unknown>, kind: string): string {
  const key = clause.key;
  if (typeof key !== "string" || key.length === 0) fail(index, `${kind}.key must be a non-empty string`);
  if (key.includes("\u0000")) fail(index, `${kind}.key contains a NUL character`);
  return key;
}

function numberOf(index: number, value: unknown, where: string): number {
  let n: number | undefined;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && value.trim() !== "") {
    const text = value.trim();
    n = text === "Infinity" || text === "+Infinity" ? Infinity : text === "-Infinity" ? -Infinity : Number(text);
  }
  if (n === undefined || Number.isNaN(n)) fail(index, `${where}.value must be a number`);
  return n;
}

function metricExpression(index: number, metric: unknown): FilterAst {
  if (!isObject(metric)) fail(index, "metric must be an object");
  const key = keyOf(index, metric, "metric");
  const hasFloat = metric.float !== undefined && metric.float !== null;
  const hasDouble = metric.double !== undefined && metric.double !== null;
  if (hasFloat === hasDouble) fail(index, "metric must hold exactly one of float or double");
  const where = hasDouble ? "metric.double" : "metric.float";
  const clause = hasDouble ? metric.double : metric.float;
  if (!isObject(clause)) fail(index, `${where} must be an object`);
  const comparator = clause.comparator;
  const operator =
    typeof comparator === "string" && Object.hasOwn(METRIC_COMPARATORS, comparator)
      ? METRIC_COMPARATORS[comparator]
      : undefined;
  if (!operator) fail(index, `${where}.comparator must be one of ${Object.keys(METRIC_COMPARATORS).join(", ")}`);
  return { type: "numeric", field: { entity: "metric", key }, operator, value: numberOf(index, clause.value, where) };
}

function parameterExpression(index: number, parameter: unknown): FilterAst {
  if (!isObject(parameter)) fail(index, "parameter must be an object");
  const key = keyOf(index, parameter, "parameter");
  const clause = parameter.string;
  if (!isObject(clause)) fail(index, "parameter.string must be an object");
  const value = clause.value;
  if (typeof value !== "string") fail(index, "parameter.string.value must be a string");
  if (value.includes("\u0000")) fail(index, "parameter.string.value contains a NUL character");
  const field = { entity: "param" as const, key };
  switch (clause.comparator) {
    case "==":
      return { type: "string", field, operator: "=", value };
    case "!=":
      return { type: "string", field, operator: "!=", value };
    case "~":
      return { type: "string", field, operator: "LIKE", value: `%${escapeLike(value)}%` };
    default:
      return fail(index, "parameter.string.comparator must be one of ==, !=, ~");
  }
}

/**
 * Converts `anded_expressions` (any JSON) to one filter AST; `undefined` when there are none
 * (match all).
 */
export function andedExpressionsToFilter(expressions: unknown): FilterAst | undefined {
  if (expressions === undefined || expressions === null) return undefined;
  if (!Array.isArray(expressions))
    throw invalidParameter("Invalid anded_expressions: it must be a list of search expressions");
  if (expressions.length > 500)
    throw invalidParameter("Invalid anded_expressions: at most 500 expressions are allowed");
  const operands = expressions.map((expression: unknown, index): FilterAst => {
    if (!isObject(expression)) fail(index, "a search expression must be an object");
    const hasMetric = expression.metric !== undefined && expression.metric !== null;
    const hasParameter = expression.parameter !== undefined && expression.parameter !== null;
    if (hasMetric === hasParameter) fail(index, "a search expression holds exactly one of metric or parameter");
    return hasMetric ? metricExpression(index, expression.metric) : parameterExpression(index, expression.parameter);
  });
  if (operands.length === 0) return undefined;
  return operands.length === 1 ? operands[0] : { type: "and", operands };
}
