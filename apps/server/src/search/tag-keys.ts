import type { FilterAst, FilterField, OrderTerm } from "./ast.js";

/** Renames tag keys (e.g. between a request's system-tag namespace and storage). */
export type TagKeyRename = (key: string) => string;

const renameField = (field: FilterField, rename: TagKeyRename): FilterField =>
  field.entity === "tag" ? { entity: "tag", key: rename(field.key) } : field;

/** The filter with every `tags.<key>` renamed. */
export function renameFilterTags(ast: FilterAst, rename: TagKeyRename): FilterAst {
  switch (ast.type) {
    case "and":
    case "or":
      return { type: ast.type, operands: ast.operands.map((operand) => renameFilterTags(operand, rename)) };
    case "not":
      return { type: "not", operand: renameFilterTags(ast.operand, rename) };
    default:
      return { ...ast, field: renameField(ast.field, rename) };
  }
}

/** The order terms with every `tags.<key>` renamed. */
export const renameOrderTags = (terms: readonly OrderTerm[], rename: TagKeyRename): OrderTerm[] =>
  terms.map((term) => ({ ...term, field: renameField(term.field, rename) }));
