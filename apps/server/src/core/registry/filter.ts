import { invalidParameter } from "../errors.js";

/**
 * The filter grammar of registered-models/search and model-versions/search:
 *
 *   filter     := condition ( AND condition )*      (an empty or blank filter matches everything)
 *   condition  := column comparator string
 *   comparator := "=" | LIKE | ILIKE                 (which ones a column allows depends on the search)
 *   string     := "'" ( any character but "'" | "''" )* "'"
 *
 * Keywords (AND, LIKE, ILIKE) and column names are case-insensitive. The text is split into
 * tokens first and the token list parsed by recursive descent; conditions come out typed, for the
 * store to compile into parameterized SQL.
 */

export type FilterComparator = "=" | "LIKE" | "ILIKE";

export interface FilterCondition<Column extends string = string> {
  column: Column;
  comparator: FilterComparator;
  /** The string literal, with '' already turned into '. */
  value: string;
}

/** The columns a search accepts and, for each, the comparators it allows. */
export type FilterColumns<Column extends string> = Readonly<Record<Column, readonly FilterComparator[]>>;

type TokenKind = "word" | "string" | "number" | "operator" | "quoted-identifier" | "punctuation" | "end";

interface Token {
  kind: TokenKind;
  /** The token as written (for error messages), or the decoded string for `string`. */
  text: string;
  /** 1-based character position in the filter. */
  position: number;
}

const isWordStart = (c: string) => /[A-Za-z_]/.test(c);
const isWordPart = (c: string) => /[A-Za-z0-9_.]/.test(c);
const isDigit = (c: string) => c >= "0" && c <= "9";
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";

const OPERATORS = ["<=", ">=", "!=", "<>", "==", "=", "<", ">"];

function fail(filter: string, problem: string): never {
  throw invalidParameter(`Invalid filter '${filter}': ${problem}`);
}

/** Splits a filter into tokens; the last token is always `end`. */
export function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i];
    const position = i + 1;
    if (isSpace(c)) {
      i += 1;
    } else if (c === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= filter.length) fail(filter, `the string starting at position ${position} is not closed with a single quote`);
        if (filter[j] === "'") {
          if (filter[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += filter[j];
        j += 1;
      }
      tokens.push({ kind: "string", text: value, position });
      i = j + 1;
    } else if (c === '"' || c === "`") {
      const end = filter.indexOf(c, i + 1);
      const stop = end < 0 ? filter.length : end + 1;
      tokens.push({ kind: "quoted-identifier", text: filter.slice(i, stop), position });
      i = stop;
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < filter.length && isWordPart(filter[j])) j += 1;
      tokens.push({ kind: "word", text: filter.slice(i, j), position });
      i = j;
    } else if (isDigit(c) || ((c === "-" || c === ".") && isDigit(filter[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < filter.length && (isDigit(filter[j]) || filter[j] === ".")) j += 1;
      tokens.push({ kind: "number", text: filter.slice(i, j), position });
      i = j;
    } else {
      const operator = OPERATORS.find((op) => filter.startsWith(op, i));
      if (operator) {
        tokens.push({ kind: "operator", text: operator, position });
        i += operator.length;
      } else if (c === "(" || c === ")" || c === ",") {
        tokens.push({ kind: "punctuation", text: c, position });
        i += 1;
      } else {
        fail(filter, `unexpected character '${c}' at position ${position}`);
      }
    }
  }
  tokens.push({ kind: "end", text: "", position: filter.length + 1 });
  return tokens;
}

const describe = (token: Token) => (token.kind === "end" ? "the end of the filter" : `'${token.text}' at position ${token.position}`);

/**
 * Parses a filter against the columns a search accepts. An undefined, empty or blank filter
 * gives no conditions (everything matches). Anything outside the grammar, an unknown column or a
 * comparator the column does not allow is INVALID_PARAMETER_VALUE naming the problem.
 */
export function parseFilter<Column extends string>(filter: string | undefined, columns: FilterColumns<Column>): FilterCondition<Column>[] {
  if (filter === undefined || filter.trim() === "") return [];
  const tokens = tokenize(filter);
  const known = Object.keys(columns) as Column[];
  const conditions: FilterCondition<Column>[] = [];
  let at = 0;
  const next = () => tokens[at++];

  for (;;) {
    // column
    const columnToken = next();
    if (columnToken.kind !== "word") {
      const hint = columnToken.kind === "quoted-identifier" ? " (columns are written without quotes)" : "";
      fail(filter, `expected a column (${known.join(", ")}) but found ${describe(columnToken)}${hint}`);
    }
    const column = known.find((k) => k === columnToken.text.toLowerCase());
    if (!column) fail(filter, `unknown column '${columnToken.text}'; the columns are ${known.join(", ")}`);

    // comparator
    const comparatorToken = next();
    let comparator: FilterComparator | undefined;
    if (comparatorToken.kind === "operator" && comparatorToken.text === "=") comparator = "=";
    else if (comparatorToken.kind === "word" && comparatorToken.text.toUpperCase() === "LIKE") comparator = "LIKE";
    else if (comparatorToken.kind === "word" && comparatorToken.text.toUpperCase() === "ILIKE") comparator = "ILIKE";
    const allowed = columns[column];
    if (!comparator || !allowed.includes(comparator)) {
      const found = comparatorToken.kind === "end" ? "nothing" : `'${comparatorToken.text}'`;
      fail(filter, `the column '${column}' takes the comparator ${allowed.join(" or ")}, not ${found}`);
    }

    // value
    const valueToken = next();
    if (valueToken.kind !== "string") {
      fail(filter, `expected a string in single quotes after '${column} ${comparator}' but found ${describe(valueToken)}`);
    }
    conditions.push({ column, comparator, value: valueToken.text });

    // AND or end
    const joiner = next();
    if (joiner.kind === "end") return conditions;
    if (joiner.kind !== "word" || joiner.text.toUpperCase() !== "AND") {
      fail(filter, `expected AND or the end of the filter but found ${describe(joiner)}`);
    }
  }
}
