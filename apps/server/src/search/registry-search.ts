/**
 * registered-models/search and model-versions/search filters compiled to SQL, from the same AST as
 * runs and experiments (filter-parser.ts: parseRegisteredModelFilter, parseModelVersionFilter).
 * The store gives the SQL column of each field. As revision C says, `LIKE` and `ILIKE` on a
 * registry field mean "contains": the text is wrapped in `%...%` (`%` and `_` inside stay
 * wildcards).
 */
import { invalidParameter } from "../errors.js";
import type { FilterAst, RegistryAttribute } from "./ast.js";
import type { SqlFragment } from "./keyset.js";
import { combine, stringComparison } from "./sql-fragments.js";

export function compileRegistryFilter<Field extends RegistryAttribute>(
  ast: FilterAst,
  columns: Readonly<Record<Field, string>>,
): SqlFragment {
  switch (ast.type) {
    case "and":
    case "or":
      return combine(
        ast.operands.map((operand) => compileRegistryFilter(operand, columns)),
        ast.type === "and" ? "AND" : "OR",
      );
    case "not": {
      const inner = compileRegistryFilter(ast.operand, columns);
      return { sql: `NOT (${inner.sql})`, bindings: inner.bindings };
    }
    case "string": {
      const key = ast.field.key as Field;
      const column = ast.field.entity === "attribute" && Object.hasOwn(columns, key) ? columns[key] : undefined;
      if (!column) throw invalidParameter(`Invalid filter: '${String(ast.field.key)}' cannot be searched here`);
      const contains =
        ast.operator === "LIKE" ||
        ast.operator === "ILIKE" ||
        ast.operator === "NOT LIKE" ||
        ast.operator === "NOT ILIKE";
      return stringComparison(column, ast.operator, contains ? `%${ast.value}%` : ast.value);
    }
    default:
      throw invalidParameter("Invalid filter: only string comparisons apply to the model registry");
  }
}
