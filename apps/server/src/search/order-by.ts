/**
 * The one order_by parser of the searches that take order_by strings, and the order kit of the
 * column searches (tie-breaks, order signatures for page tokens):
 *
 * - runs/search and experiments/search name fields of the filter grammar (`metrics.<key> DESC`,
 *   `attributes.start_time`, `tags."a b"`): parseRunOrderBy, parseExperimentOrderBy.
 * - registered-models/search and model-versions/search name plain columns (`name DESC`,
 *   `version_number`): parseOrderBy, with the search's columns and their other names.
 *
 * What differs between them is the vocabulary (dialects.ts: the attributes or columns a clause may
 * name, whether metrics, params and tags may order the search); the grammar, the limits and the
 * messages are the same. logged-models/search takes structured order_by objects instead
 * (logged-model-search.ts).
 *
 *   order-by := identifier [ "ASC" | "DESC" ] EOF     (ASC by default; keywords in any case)
 *
 * Every error is INVALID_PARAMETER_VALUE: `Invalid order_by: ...` about the list, or
 * `Invalid order_by clause '<clause>' at position <n>: ...` about one clause (an unknown field, one
 * that cannot order the search, a word other than ASC or DESC, anything after the direction, a field
 * named twice, as MLflow refuses duplicate fields).
 */
import { invalidParameter } from "../errors.js";
import type { FieldOf, OrderTerm } from "./ast.js";
import { EXPERIMENT_DIALECT, type FieldVocabulary, RUN_DIALECT } from "./dialects.js";
import { isKeyword, readField, TokenReader } from "./field-reader.js";
import { describeToken, type Fail, tokenize } from "./filter-lexer.js";

/** Bounds of one order_by list. */
export const ORDER_BY_LIMITS = {
  /** Clauses (items) of a list. */
  maxClauses: 10,
  /** Characters of one clause. */
  maxClauseLength: 1000,
} as const;

const sameField = (a: FieldOf<string>, b: FieldOf<string>) => a.entity === b.entity && a.key === b.key;

/** Parses order_by clauses of a search whose fields are `vocabulary`'s; none (or no list) gives `[]`. */
export function parseOrderTerms<Attribute extends string>(
  orderBy: readonly string[] | undefined | null,
  vocabulary: FieldVocabulary<Attribute>,
): OrderTerm<FieldOf<Attribute>>[] {
  if (orderBy === undefined || orderBy === null) return [];
  if (!Array.isArray(orderBy)) throw invalidParameter("Invalid order_by: it must be a list of strings");
  if (orderBy.length > ORDER_BY_LIMITS.maxClauses) {
    throw invalidParameter(
      `Invalid order_by: at most ${ORDER_BY_LIMITS.maxClauses} clauses are allowed, got ${orderBy.length}`,
    );
  }
  const terms: OrderTerm<FieldOf<Attribute>>[] = [];
  for (const clause of orderBy) {
    if (typeof clause !== "string") throw invalidParameter("Invalid order_by: every clause must be a string");
    if (clause.length > ORDER_BY_LIMITS.maxClauseLength)
      throw invalidParameter(
        `Invalid order_by clause: it is longer than ${ORDER_BY_LIMITS.maxClauseLength} characters`,
      );
    const fail: Fail = (offset, message) => {
      throw invalidParameter(`Invalid order_by clause '${clause}' at position ${offset + 1}: ${message}`);
    };
    const term = parseClause(new TokenReader(tokenize(clause, fail), fail), vocabulary, terms);
    terms.push(term);
  }
  return terms;
}

/** One clause: a field the search can be ordered by, not one of `earlier`, then an optional direction. */
function parseClause<Attribute extends string>(
  reader: TokenReader,
  vocabulary: FieldVocabulary<Attribute>,
  earlier: readonly OrderTerm<FieldOf<Attribute>>[],
): OrderTerm<FieldOf<Attribute>> {
  const first = reader.peek();
  if (first.kind !== "word") reader.failAt(first, `expected an identifier to order ${vocabulary.name} by`);
  const { field, orderable, text } = readField(reader, vocabulary);
  if (!orderable) reader.fail(first.start, `${text} cannot be used to order ${vocabulary.name}`);
  if (earlier.some((term) => sameField(term.field, field)))
    reader.fail(first.start, `${text} is named more than once; order by each field once`);
  let ascending = true;
  const direction = reader.peek();
  if (isKeyword(direction, "ASC") || isKeyword(direction, "DESC")) {
    ascending = isKeyword(direction, "ASC");
    reader.next();
  } else if (direction.kind !== "eof") {
    const hint =
      direction.kind === "comma"
        ? "; give each clause as an order_by item of its own"
        : "; the direction is ASC or DESC";
    reader.fail(
      direction.start,
      `expected ASC, DESC or the end of the clause after ${text}, found ${describeToken(direction)}${hint}`,
    );
  }
  const rest = reader.peek();
  if (rest.kind !== "eof") reader.failAt(rest, "expected the end of the clause");
  return { field, ascending };
}

/** Parses runs/search order_by clauses (`metrics.<key> DESC`, `attributes.start_time`, ...). */
export function parseRunOrderBy(orderBy: readonly string[] | undefined | null): OrderTerm[] {
  return parseOrderTerms(orderBy, RUN_DIALECT);
}

/** Parses experiments/search order_by clauses (`name`, `experiment_id DESC`, `creation_time`, ...). */
export function parseExperimentOrderBy(orderBy: readonly string[] | undefined | null): OrderTerm[] {
  return parseOrderTerms(orderBy, EXPERIMENT_DIALECT);
}

/** One sort key of a column search: a column and a direction. */
export interface SortKey<Column extends string> {
  column: Column;
  ascending: boolean;
}

/** A column is only ordered by (the registry's filters have dialects of their own). */
const ORDER_COLUMN = { type: "string", inAllowed: false, orderable: true } as const;

/** The vocabulary of a search ordered by plain columns: no prefixes, no metrics, params or tags. */
export function columnVocabulary<Column extends string>(
  name: string,
  columns: readonly Column[],
  aliases: Readonly<Record<string, Column>> = {},
): FieldVocabulary<Column> {
  const named = [...columns.map((c) => [c, c] as const), ...Object.entries(aliases)];
  return {
    name,
    entities: {},
    attributes: Object.fromEntries(named.map(([word, column]) => [word, { ...ORDER_COLUMN, key: column }])),
    attributeNoun: "column",
    keyed: [],
    keyedOrderable: false,
    identifiers: `a column: ${columns.join(", ")}`,
  };
}

export interface ColumnOrderOptions<Column extends string> {
  /** Other names of columns, e.g. MLflow 2.x's `version_number` for `version`. */
  aliases?: Readonly<Record<string, Column>>;
  /** The search, for messages: "registered models", "model versions". */
  scope?: string;
}

/**
 * Parses the order_by items of a column search: each is `<column>` optionally followed by `ASC`
 * or `DESC` (case-insensitive, ASC by default). Blank items are ignored (a query string's
 * `order_by=`). An unknown column, another word after the column, or a column named twice is
 * INVALID_PARAMETER_VALUE.
 */
export function parseOrderBy<Column extends string>(
  items: readonly string[],
  columns: readonly Column[],
  options: ColumnOrderOptions<Column> = {},
): SortKey<Column>[] {
  const vocabulary = columnVocabulary(options.scope ?? "this search", columns, options.aliases);
  const clauses = items.filter((item) => typeof item !== "string" || item.trim() !== "");
  return parseOrderTerms(clauses, vocabulary).map(({ field, ascending }) => {
    // A vocabulary without prefixes names attributes (here: columns) only.
    if (field.entity !== "attribute") throw new Error(`a column search was ordered by a ${field.entity}`);
    return { column: field.key, ascending };
  });
}

/** The user's keys followed by the tie-breaks whose column the user did not name. */
export function withTieBreaks<Column extends string>(
  keys: SortKey<Column>[],
  tieBreaks: readonly SortKey<Column>[],
): SortKey<Column>[] {
  return [...keys, ...tieBreaks.filter((t) => !keys.some((k) => k.column === t.column))];
}

/** A stable text form of an order, so that a page token can only continue the order it came from. */
export const orderSignature = (keys: readonly SortKey<string>[]) =>
  keys.map((k) => `${k.column}${k.ascending ? "+" : "-"}`).join(",");
