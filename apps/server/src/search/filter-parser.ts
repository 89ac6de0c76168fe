/**
 * Recursive-descent parser of search filters (order_by clauses: order-by.ts).
 *
 * Grammar (keywords are case-insensitive; precedence NOT > AND > OR):
 *
 *   filter     := [ or ] EOF                      (an empty filter matches everything)
 *   or         := and { "OR" and }
 *   and        := not { "AND" not }
 *   not        := "NOT" not | primary
 *   primary    := "(" or ")" | comparison
 *   comparison := identifier op value
 *               | identifier [ "NOT" ] ( "LIKE" | "ILIKE" ) value
 *               | identifier [ "NOT" ] "IN" "(" value { "," value } ")"
 *   op         := "=" | "!=" | "<>" | ">" | ">=" | "<" | "<="
 *   identifier := prefix "." key | prefix "." quoted-key | attribute   (field-reader.ts)
 *   value      := string | number
 *
 * Run filters know the prefixes metric(s), param(s)/parameter(s), tag(s) and
 * attribute(s)/attr/run, and the attributes status, run_name, start_time, end_time, run_id and
 * artifact_uri (also without a prefix). Experiment filters know tag(s), attribute(s)/attr and the
 * attributes name, creation_time, last_update_time and experiment_id. Prefixes, attribute names
 * and keywords are matched case-insensitively; keys are case-sensitive. What each search accepts
 * is its dialect (dialects.ts).
 *
 * Type rules: metrics and numeric attributes (start_time, end_time, creation_time,
 * last_update_time) compare with a number through =, !=, >, >=, <, <=. Params, tags and string
 * attributes (status, run_name, run_id, artifact_uri, name) compare with a string through =, !=,
 * LIKE, ILIKE, NOT LIKE, NOT ILIKE; IN / NOT IN are allowed for params, tags, run_id and
 * experiment_id. experiment_id takes =, !=, IN and NOT IN with integer values (quoted or not).
 *
 * Registered-model and model-version filters (registered-models/search, model-versions/search) use
 * the same grammar restricted as revision C describes them: comparisons joined by AND only (no OR,
 * NOT or parentheses), string values in single quotes, and per field the operators it allows:
 * models `name` with =, LIKE, ILIKE; versions `name`, `run_id`, `source_path` with =.
 *
 * Every error is INVALID_PARAMETER_VALUE with the 1-based character position and what was
 * expected, e.g. `Invalid filter at position 17: expected a value after '>', found the end of the input`.
 */
import { invalidParameter } from "../errors.js";
import type {
  ExperimentAttribute,
  FilterAst,
  FilterAttribute,
  NumericOperator,
  RunAttribute,
  StringOperator,
} from "./ast.js";
import {
  type Dialect,
  EXPERIMENT_DIALECT,
  LOGGED_MODEL_DIALECT,
  MODEL_VERSION_DIALECT,
  REGISTERED_MODEL_DIALECT,
  RUN_DIALECT,
} from "./dialects.js";
import { isKeyword, readField, type ResolvedField, TokenReader } from "./field-reader.js";
import { tokenize, type Fail, type Token } from "./filter-lexer.js";
import { likePatternProblem } from "./sql-fragments.js";

/** Bounds that keep a hostile filter from exhausting the stack or the database's parameter limit. */
export const FILTER_LIMITS = {
  /** Nesting of parentheses and NOT. */
  maxDepth: 50,
  /** Comparisons in one filter. */
  maxComparisons: 500,
  /** Values in all IN lists of one filter together. */
  maxInValues: 10_000,
  /** Characters of a filter string. */
  maxLength: 100_000,
} as const;

const NUMERIC_OPERATORS: readonly NumericOperator[] = ["=", "!=", ">", ">=", "<", "<="];

/** A field of a filter, resolved. */
type Resolved = ResolvedField<FilterAttribute>;

class Parser extends TokenReader {
  private comparisons = 0;
  private inValues = 0;

  constructor(
    tokens: Token[],
    private readonly dialect: Dialect,
    fail: Fail,
  ) {
    super(tokens, fail);
  }

  parseFilter(): FilterAst | undefined {
    if (this.peek().kind === "eof") return undefined;
    const ast = this.parseOr(0);
    const rest = this.peek();
    if (rest.kind !== "eof") {
      const expected =
        this.dialect.logic === "and-only"
          ? "expected AND or the end of the filter"
          : "expected AND, OR or the end of the filter";
      this.failAt(rest, rest.kind === "rparen" ? `unbalanced ')': ${expected}` : expected);
    }
    return ast;
  }

  private parseOr(depth: number): FilterAst {
    const operands = [this.parseAnd(depth)];
    while (this.dialect.logic === "boolean" && isKeyword(this.peek(), "OR")) {
      this.next();
      operands.push(this.parseAnd(depth));
    }
    return operands.length === 1 ? operands[0] : { type: "or", operands };
  }

  private parseAnd(depth: number): FilterAst {
    const operands = [this.parseNot(depth)];
    while (isKeyword(this.peek(), "AND")) {
      this.next();
      operands.push(this.parseNot(depth));
    }
    return operands.length === 1 ? operands[0] : { type: "and", operands };
  }

  private parseNot(depth: number): FilterAst {
    const token = this.peek();
    if (isKeyword(token, "NOT") && this.dialect.logic === "boolean") {
      this.checkDepth(token, depth + 1);
      this.next();
      return { type: "not", operand: this.parseNot(depth + 1) };
    }
    return this.parsePrimary(depth);
  }

  private parsePrimary(depth: number): FilterAst {
    const token = this.peek();
    if (token.kind === "lparen" && this.dialect.logic === "boolean") {
      this.checkDepth(token, depth + 1);
      this.next();
      const inner = this.parseOr(depth + 1);
      const close = this.peek();
      if (close.kind !== "rparen") {
        this.failAt(close, `expected ')' to close the '(' at position ${token.start + 1}`);
      }
      this.next();
      return inner;
    }
    return this.parseComparison();
  }

  private checkDepth(token: Token, depth: number): void {
    if (depth > FILTER_LIMITS.maxDepth)
      this.fail(token.start, `the filter is nested more than ${FILTER_LIMITS.maxDepth} levels deep`);
  }

  private parseComparison(): FilterAst {
    const first = this.peek();
    const resolved = readField(this, this.dialect);
    this.comparisons++;
    if (this.comparisons > FILTER_LIMITS.maxComparisons)
      this.fail(first.start, `a filter may hold at most ${FILTER_LIMITS.maxComparisons} comparisons`);

    const opToken = this.peek();
    let negated = false;
    if (isKeyword(opToken, "NOT")) {
      this.next();
      negated = true;
      const after = this.peek();
      if (!isKeyword(after, "IN") && !isKeyword(after, "LIKE") && !isKeyword(after, "ILIKE")) {
        this.failAt(after, "expected IN, LIKE or ILIKE after NOT");
      }
    }
    const operator = this.peek();
    const shownOperator = negated
      ? `NOT ${operator.value.toUpperCase()}`
      : operator.kind === "word"
        ? operator.value.toUpperCase()
        : operator.value;
    if (isKeyword(operator, "IN")) {
      this.next();
      if (!resolved.inAllowed)
        this.fail(
          opToken.start,
          `'${shownOperator}' is not allowed for ${resolved.text}; ${this.allowedOperators(resolved)}`,
        );
      return { type: "in", field: resolved.field, negated, values: this.parseInList(resolved, shownOperator) };
    }
    if (isKeyword(operator, "LIKE") || isKeyword(operator, "ILIKE")) {
      this.next();
      if (resolved.type !== "string" || !this.takes(resolved, shownOperator))
        this.fail(
          opToken.start,
          `'${shownOperator}' is not allowed for ${resolved.text}; ${this.allowedOperators(resolved)}`,
        );
      const valueToken = this.peek();
      const value = this.parseValue(resolved, shownOperator);
      const problem = likePatternProblem(value);
      if (problem) this.fail(valueToken.start, problem);
      return { type: "string", field: resolved.field, operator: shownOperator as StringOperator, value };
    }
    if (operator.kind !== "op") {
      const operators = resolved.operators ? resolved.operators.join(", ") : "=, !=, >, >=, <, <=, LIKE, ILIKE, IN";
      this.failAt(operator, `expected a comparison operator (${operators}) after ${resolved.text}`);
    }
    this.next();
    const op = operator.value as NumericOperator;
    if (resolved.type === "numeric") {
      const value = this.parseValue(resolved, op);
      return { type: "numeric", field: resolved.field, operator: op, value: Number(value) };
    }
    if ((op !== "=" && op !== "!=") || !this.takes(resolved, op)) {
      this.fail(operator.start, `'${op}' is not allowed for ${resolved.text}; ${this.allowedOperators(resolved)}`);
    }
    const value = this.parseValue(resolved, op);
    return { type: "string", field: resolved.field, operator: op, value };
  }

  /** Whether a string field takes the operator (every one, unless the scope lists them). */
  private takes(resolved: Resolved, operator: string): boolean {
    return resolved.operators === undefined || (resolved.operators as readonly string[]).includes(operator);
  }

  private allowedOperators(resolved: Resolved): string {
    if (resolved.operators) return `it takes ${resolved.operators.join(", ")} with a string in single quotes`;
    if (resolved.type === "numeric") return `it is numeric and takes ${NUMERIC_OPERATORS.join(", ")} with a number`;
    if (resolved.type === "id") return "it takes =, !=, IN and NOT IN with an experiment id";
    return `it takes =, !=, LIKE, ILIKE${resolved.inAllowed ? ", IN, NOT IN" : ""} with a quoted string`;
  }

  /** A value of the field's type after `operator`; returns its text (numbers as their source text). */
  private parseValue(resolved: Resolved, operator: string): string {
    const token = this.peek();
    if (token.kind !== "string" && token.kind !== "number") {
      this.failAt(
        token,
        this.dialect.doubleQuotedStrings
          ? `expected a value after '${operator}'`
          : `expected a string in single quotes after '${operator}'`,
      );
    }
    this.next();
    return this.checkValue(resolved, token);
  }

  private checkValue(resolved: Resolved, token: Token): string {
    switch (resolved.type) {
      case "numeric":
        if (token.kind !== "number") this.failAt(token, `expected a number to compare ${resolved.text} with`);
        return token.value;
      case "string":
        if (!this.dialect.doubleQuotedStrings && (token.kind !== "string" || token.quote !== "'")) {
          this.failAt(token, `expected a string in single quotes to compare ${resolved.text} with`);
        }
        if (token.kind !== "string") this.failAt(token, `expected a quoted string to compare ${resolved.text} with`);
        return token.value;
      case "id": {
        const text = token.value.trim();
        if (!/^\d{1,15}$/.test(text))
          this.failAt(token, `expected an experiment id (a non-negative integer) to compare ${resolved.text} with`);
        return String(Number(text));
      }
    }
  }

  private parseInList(resolved: Resolved, operator: string): string[] {
    const open = this.peek();
    if (open.kind !== "lparen") this.failAt(open, `expected '(' after ${operator}`);
    this.next();
    const values: string[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind !== "string" && token.kind !== "number") {
        this.failAt(
          token,
          values.length === 0 ? `expected a value in the ${operator} list` : `expected a value after ','`,
        );
      }
      this.next();
      values.push(this.checkValue(resolved, token));
      this.inValues++;
      if (this.inValues > FILTER_LIMITS.maxInValues)
        this.fail(token.start, `IN lists may hold at most ${FILTER_LIMITS.maxInValues} values in all`);
      const separator = this.peek();
      if (separator.kind === "comma") {
        this.next();
        continue;
      }
      if (separator.kind === "rparen") {
        this.next();
        return values;
      }
      this.failAt(separator, `expected ',' or ')' in the ${operator} list`);
    }
  }
}

function filterFailer(): Fail {
  return (offset, message) => {
    throw invalidParameter(`Invalid filter at position ${offset + 1}: ${message}`);
  };
}

function parseFilterWith(dialect: Dialect, filter: string | undefined | null): FilterAst | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== "string") throw invalidParameter("Invalid filter: it must be a string");
  if (filter.length > FILTER_LIMITS.maxLength)
    throw invalidParameter(`Invalid filter: it is longer than ${FILTER_LIMITS.maxLength} characters`);
  const fail = filterFailer();
  return new Parser(tokenize(filter, fail), dialect, fail).parseFilter();
}

/** Parses a revision C runs/search filter; an empty or blank filter gives `undefined` (match all). */
export function parseRunFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(RUN_DIALECT, filter);
}

/** Parses an experiments/search filter; an empty or blank filter gives `undefined` (match all). */
export function parseExperimentFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(EXPERIMENT_DIALECT, filter);
}

/** order_by of runs and experiments is parsed by order-by.ts (the one order_by parser). */
export { parseExperimentOrderBy, parseRunOrderBy } from "./order-by.js";

/** The attributes each scope accepts, as the parser resolves them. */
export const RUN_ATTRIBUTES = Object.keys(RUN_DIALECT.attributes) as RunAttribute[];
export const EXPERIMENT_ATTRIBUTES = Object.keys(EXPERIMENT_DIALECT.attributes) as ExperimentAttribute[];

/** Parses a registered-models/search filter (`name = '...'`, `name LIKE '...'`, ... joined by AND). */
export function parseRegisteredModelFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(REGISTERED_MODEL_DIALECT, filter);
}

/** Parses a logged-models/search filter (MLflow 3): comparisons joined by AND. */
export function parseLoggedModelFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(LOGGED_MODEL_DIALECT, filter);
}

/** Parses a model-versions/search filter (`name = '...'`, `run_id = '...'`, `source_path = '...'` joined by AND). */
export function parseModelVersionFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(MODEL_VERSION_DIALECT, filter);
}
