/**
 * Recursive-descent parser of search filters and order_by clauses.
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
 *   identifier := prefix "." key | prefix "." quoted-key | attribute
 *   quoted-key := '"' ... '"' | "`" ... "`"     (directly after the dot)
 *   value      := string | number
 *
 *   order-by   := identifier [ "ASC" | "DESC" ] EOF
 *
 * Run filters know the prefixes metric(s), param(s)/parameter(s), tag(s) and
 * attribute(s)/attr/run, and the attributes status, run_name, start_time, end_time, run_id and
 * artifact_uri (also without a prefix). Experiment filters know tag(s), attribute(s)/attr and the
 * attributes name, creation_time, last_update_time and experiment_id. Prefixes, attribute names
 * and keywords are matched case-insensitively; keys are case-sensitive.
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
  DatasetField,
  ExperimentAttribute,
  FilterAst,
  FilterField,
  LoggedModelAttribute,
  NumericOperator,
  OrderTerm,
  RegistryAttribute,
  RunAttribute,
  StringOperator,
} from "./ast.js";
import { describeToken, tokenize, type Fail, type Token } from "./filter-lexer.js";
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
  /** order_by items. */
  maxOrderBy: 10,
} as const;

type FieldType = "numeric" | "string" | "id";

interface AttributeSpec {
  key: RunAttribute | ExperimentAttribute | RegistryAttribute | LoggedModelAttribute;
  type: FieldType;
  inAllowed: boolean;
  orderable: boolean;
  /** The string operators the field takes, when fewer than all (registry searches). */
  operators?: readonly StringOperator[];
}

/** What one search scope (runs, experiments, registered models, model versions) accepts. */
interface Dialect {
  /** "runs", "experiments", ..., for messages. */
  name: string;
  entities: Record<string, "metric" | "param" | "tag" | "dataset" | "attribute">;
  attributes: Record<string, AttributeSpec>;
  /** Entities with keys (besides attribute). */
  keyed: Array<"metric" | "param" | "tag">;
  /** Whether order_by may name keyed fields. */
  keyedOrderable: boolean;
  /** `and-only`: comparisons joined by AND, without OR, NOT or parentheses. */
  logic: "boolean" | "and-only";
  /** Whether string values may be double-quoted as well as single-quoted. */
  doubleQuotedStrings: boolean;
  /** What an identifier may be, for messages. */
  identifiers: string;
}

const RUN_DIALECT: Dialect = {
  name: "runs",
  entities: {
    metric: "metric",
    metrics: "metric",
    param: "param",
    params: "param",
    parameter: "param",
    parameters: "param",
    tag: "tag",
    tags: "tag",
    attribute: "attribute",
    attributes: "attribute",
    attr: "attribute",
    run: "attribute",
    dataset: "dataset",
    datasets: "dataset",
  },
  attributes: {
    status: { key: "status", type: "string", inAllowed: false, orderable: true },
    run_name: { key: "run_name", type: "string", inAllowed: false, orderable: true },
    start_time: { key: "start_time", type: "numeric", inAllowed: false, orderable: true },
    end_time: { key: "end_time", type: "numeric", inAllowed: false, orderable: true },
    run_id: { key: "run_id", type: "string", inAllowed: true, orderable: true },
    artifact_uri: { key: "artifact_uri", type: "string", inAllowed: false, orderable: true },
  },
  keyed: ["metric", "param", "tag"],
  keyedOrderable: true,
  logic: "boolean",
  doubleQuotedStrings: true,
  identifiers:
    "an identifier such as metrics.<key>, params.<key>, tags.<key> or an attribute (status, run_name, start_time, end_time, run_id, artifact_uri)",
};

const EXPERIMENT_DIALECT: Dialect = {
  name: "experiments",
  entities: { tag: "tag", tags: "tag", attribute: "attribute", attributes: "attribute", attr: "attribute" },
  attributes: {
    name: { key: "name", type: "string", inAllowed: false, orderable: true },
    experiment_id: { key: "experiment_id", type: "id", inAllowed: true, orderable: true },
    creation_time: { key: "creation_time", type: "numeric", inAllowed: false, orderable: true },
    last_update_time: { key: "last_update_time", type: "numeric", inAllowed: false, orderable: true },
  },
  keyed: ["tag"],
  keyedOrderable: false,
  logic: "boolean",
  doubleQuotedStrings: true,
  identifiers: "an identifier such as name, tags.<key>, creation_time, last_update_time or experiment_id",
};

const REGISTRY_FIELD = { type: "string", inAllowed: false, orderable: false } as const;

const REGISTERED_MODEL_DIALECT: Dialect = {
  name: "registered models",
  entities: {},
  attributes: { name: { ...REGISTRY_FIELD, key: "name", operators: ["=", "LIKE", "ILIKE"] } },
  keyed: [],
  keyedOrderable: false,
  logic: "and-only",
  doubleQuotedStrings: false,
  identifiers: "an identifier: name",
};

const MODEL_VERSION_DIALECT: Dialect = {
  name: "model versions",
  entities: {},
  attributes: {
    name: { ...REGISTRY_FIELD, key: "name", operators: ["="] },
    run_id: { ...REGISTRY_FIELD, key: "run_id", operators: ["="] },
    source_path: { ...REGISTRY_FIELD, key: "source_path", operators: ["="] },
  },
  keyed: [],
  keyedOrderable: false,
  logic: "and-only",
  doubleQuotedStrings: false,
  identifiers: "an identifier: name, run_id or source_path",
};

const LOGGED_MODEL_STRING = { type: "string", inAllowed: true, orderable: false } as const;
const LOGGED_MODEL_TIME = { type: "numeric", inAllowed: false, orderable: false } as const;

/**
 * Logged-model filters (MLflow 3's logged-models/search): comparisons joined by AND, on
 * `metrics.<key>`, `params.<key>`, `tags.<key>` and the model's attributes, with MLflow's aliases
 * of the timestamps. `status` takes =, !=, IN and NOT IN with MLflow's status names (checked by
 * the compiler). order_by of logged models has its own structured form (not parsed here).
 */
const LOGGED_MODEL_DIALECT: Dialect = {
  name: "logged models",
  entities: { metrics: "metric", params: "param", tags: "tag", attributes: "attribute" },
  attributes: {
    model_id: { ...LOGGED_MODEL_STRING, key: "model_id" },
    experiment_id: { ...LOGGED_MODEL_STRING, key: "experiment_id" },
    name: { ...LOGGED_MODEL_STRING, key: "name" },
    artifact_location: { ...LOGGED_MODEL_STRING, key: "artifact_location" },
    model_type: { ...LOGGED_MODEL_STRING, key: "model_type" },
    source_run_id: { ...LOGGED_MODEL_STRING, key: "source_run_id" },
    status_message: { ...LOGGED_MODEL_STRING, key: "status_message" },
    status: { ...LOGGED_MODEL_STRING, key: "status", operators: ["=", "!="] },
    creation_timestamp_ms: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    creation_timestamp: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    creation_time: { ...LOGGED_MODEL_TIME, key: "creation_timestamp_ms" },
    last_updated_timestamp_ms: { ...LOGGED_MODEL_TIME, key: "last_updated_timestamp_ms" },
    last_updated_timestamp: { ...LOGGED_MODEL_TIME, key: "last_updated_timestamp_ms" },
  },
  keyed: ["metric", "param", "tag"],
  keyedOrderable: false,
  logic: "and-only",
  doubleQuotedStrings: true,
  identifiers:
    "an identifier such as metrics.<key>, params.<key>, tags.<key> or an attribute (name, model_id, status, source_run_id, creation_timestamp_ms, ...)",
};

const DATASET_FIELDS: readonly DatasetField[] = ["name", "digest", "context"];

const RESERVED = new Set(["AND", "OR", "NOT", "IN", "LIKE", "ILIKE"]);
const NUMERIC_OPERATORS: readonly NumericOperator[] = ["=", "!=", ">", ">=", "<", "<="];
const ENTITY_NAMES: Record<"metric" | "param" | "tag", string> = { metric: "metrics", param: "params", tag: "tags" };

interface ResolvedField {
  field: FilterField;
  type: FieldType;
  inAllowed: boolean;
  orderable: boolean;
  operators?: readonly StringOperator[];
  /** How the user wrote it, for messages. */
  text: string;
}

const isKeyword = (token: Token, keyword: string) => token.kind === "word" && token.value.toUpperCase() === keyword;

class Parser {
  private index = 0;
  private comparisons = 0;
  private inValues = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly dialect: Dialect,
    private readonly fail: Fail,
  ) {}

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== "eof") this.index++;
    return token;
  }

  private failAt(token: Token, expected: string): never {
    return this.fail(token.start, `${expected}, found ${describeToken(token)}`);
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

  parseOrderBy(): OrderTerm {
    const first = this.peek();
    if (first.kind !== "word") this.failAt(first, `expected an identifier to order ${this.dialect.name} by`);
    const resolved = this.parseIdentifier();
    if (!resolved.orderable) this.fail(first.start, `${resolved.text} cannot be used to order ${this.dialect.name}`);
    let ascending = true;
    const direction = this.peek();
    if (isKeyword(direction, "ASC") || isKeyword(direction, "DESC")) {
      ascending = isKeyword(direction, "ASC");
      this.next();
    } else if (direction.kind !== "eof") {
      this.failAt(direction, `expected ASC, DESC or the end of the clause after ${resolved.text}`);
    }
    const rest = this.peek();
    if (rest.kind !== "eof") this.failAt(rest, "expected the end of the clause");
    return { field: resolved.field, ascending };
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

  /** identifier: a word, possibly `prefix.` directly followed by a double-quoted or backtick-quoted key. */
  private parseIdentifier(): ResolvedField {
    const word = this.peek();
    if (word.kind !== "word" || RESERVED.has(word.value.toUpperCase())) {
      this.failAt(word, this.identifierExpectation());
    }
    this.next();
    let prefix: string | undefined;
    let key: string;
    let text = word.value;
    if (Object.keys(this.dialect.entities).length === 0) {
      // No prefixes in this scope: the whole word names an attribute.
      key = word.value;
    } else if (word.value.indexOf(".") === word.value.length - 1) {
      prefix = word.value.slice(0, -1);
      const quoted = this.peek();
      const isQuotedKey = (quoted.kind === "string" && quoted.quote === '"') || quoted.kind === "backtick";
      if (!isQuotedKey || quoted.start !== word.end) {
        this.failAt(
          quoted,
          `expected a key directly after '${word.value}' (quote keys with special characters as ${word.value}"<key>" or ${word.value}\`<key>\`)`,
        );
      }
      this.next();
      key = quoted.value;
      text = `${word.value}${quoted.kind === "backtick" ? "`" : '"'}${quoted.value}${quoted.kind === "backtick" ? "`" : '"'}`;
    } else {
      const dot = word.value.indexOf(".");
      if (dot >= 0) {
        prefix = word.value.slice(0, dot);
        key = word.value.slice(dot + 1);
      } else {
        key = word.value;
      }
    }
    return this.resolve(word, prefix, key, text);
  }

  private identifierExpectation(): string {
    return `expected ${this.dialect.identifiers}`;
  }

  private resolve(word: Token, prefix: string | undefined, key: string, text: string): ResolvedField {
    const entity =
      prefix === undefined
        ? "attribute"
        : Object.hasOwn(this.dialect.entities, prefix.toLowerCase())
          ? this.dialect.entities[prefix.toLowerCase()]
          : undefined;
    if (entity === undefined) {
      const known = this.dialect.keyed.map((e) => ENTITY_NAMES[e]).concat("attributes");
      this.fail(word.start, `unknown entity '${prefix}' in '${text}'; expected ${known.join(", ")}`);
    }
    if (entity === "attribute") {
      const attribute = Object.hasOwn(this.dialect.attributes, key.toLowerCase())
        ? this.dialect.attributes[key.toLowerCase()]
        : undefined;
      if (!attribute) {
        const known = Object.keys(this.dialect.attributes).join(", ");
        const hint =
          prefix === undefined && this.dialect === RUN_DIALECT
            ? "; metrics, params and tags need their prefix (metrics.<key>)"
            : "";
        this.fail(word.start, `unknown attribute '${key}' for ${this.dialect.name}; expected one of ${known}${hint}`);
      }
      return {
        field: { entity: "attribute", key: attribute.key },
        type: attribute.type,
        inAllowed: attribute.inAllowed,
        orderable: attribute.orderable,
        operators: attribute.operators,
        text,
      };
    }
    if (entity === "dataset") {
      const datasetKey = DATASET_FIELDS.find((f) => f === key.toLowerCase());
      if (!datasetKey)
        this.fail(
          word.start,
          `unknown dataset field '${key}' in '${text}'; expected ${DATASET_FIELDS.map((f) => `dataset.${f}`).join(", ")}`,
        );
      return { field: { entity: "dataset", key: datasetKey }, type: "string", inAllowed: true, orderable: false, text };
    }
    if (key.length === 0) this.fail(word.start, `the key in '${text}' is empty`);
    return {
      field: { entity, key },
      type: entity === "metric" ? "numeric" : "string",
      inAllowed: entity !== "metric",
      orderable: this.dialect.keyedOrderable,
      text,
    };
  }

  private parseComparison(): FilterAst {
    const first = this.peek();
    const resolved = this.parseIdentifier();
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
  private takes(resolved: ResolvedField, operator: string): boolean {
    return resolved.operators === undefined || (resolved.operators as readonly string[]).includes(operator);
  }

  private allowedOperators(resolved: ResolvedField): string {
    if (resolved.operators) return `it takes ${resolved.operators.join(", ")} with a string in single quotes`;
    if (resolved.type === "numeric") return `it is numeric and takes ${NUMERIC_OPERATORS.join(", ")} with a number`;
    if (resolved.type === "id") return "it takes =, !=, IN and NOT IN with an experiment id";
    return `it takes =, !=, LIKE, ILIKE${resolved.inAllowed ? ", IN, NOT IN" : ""} with a quoted string`;
  }

  /** A value of the field's type after `operator`; returns its text (numbers as their source text). */
  private parseValue(resolved: ResolvedField, operator: string): string {
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

  private checkValue(resolved: ResolvedField, token: Token): string {
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

  private parseInList(resolved: ResolvedField, operator: string): string[] {
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

function parseOrderByWith(dialect: Dialect, orderBy: readonly string[] | undefined | null): OrderTerm[] {
  if (orderBy === undefined || orderBy === null) return [];
  if (!Array.isArray(orderBy)) throw invalidParameter("Invalid order_by: it must be a list of strings");
  if (orderBy.length > FILTER_LIMITS.maxOrderBy) {
    throw invalidParameter(
      `Invalid order_by: at most ${FILTER_LIMITS.maxOrderBy} clauses are allowed, got ${orderBy.length}`,
    );
  }
  return orderBy.map((clause) => {
    if (typeof clause !== "string") throw invalidParameter("Invalid order_by: every clause must be a string");
    if (clause.length > 1000) throw invalidParameter("Invalid order_by clause: it is longer than 1000 characters");
    const fail: Fail = (offset, message) => {
      throw invalidParameter(`Invalid order_by clause '${clause}' at position ${offset + 1}: ${message}`);
    };
    return new Parser(tokenize(clause, fail), dialect, fail).parseOrderBy();
  });
}

/** Parses a revision C runs/search filter; an empty or blank filter gives `undefined` (match all). */
export function parseRunFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(RUN_DIALECT, filter);
}

/** Parses an experiments/search filter; an empty or blank filter gives `undefined` (match all). */
export function parseExperimentFilter(filter: string | undefined | null): FilterAst | undefined {
  return parseFilterWith(EXPERIMENT_DIALECT, filter);
}

/** Parses runs/search order_by clauses (`metrics.<key> DESC`, `attributes.start_time`, ...). */
export function parseRunOrderBy(orderBy: readonly string[] | undefined | null): OrderTerm[] {
  return parseOrderByWith(RUN_DIALECT, orderBy);
}

/** Parses experiments/search order_by clauses (`name`, `experiment_id DESC`, `creation_time`, ...). */
export function parseExperimentOrderBy(orderBy: readonly string[] | undefined | null): OrderTerm[] {
  return parseOrderByWith(EXPERIMENT_DIALECT, orderBy);
}

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
