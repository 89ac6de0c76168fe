import { describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import type { FilterAst, FilterField, NumericOperator, StringOperator } from "./ast.js";
import { tokenize } from "./filter-lexer.js";
import {
  FILTER_LIMITS,
  parseExperimentFilter,
  parseExperimentOrderBy,
  parseRunFilter,
  parseRunOrderBy,
} from "./filter-parser.js";

const metric = (key: string): FilterField => ({ entity: "metric", key });
const param = (key: string): FilterField => ({ entity: "param", key });
const tag = (key: string): FilterField => ({ entity: "tag", key });
const attr = (
  key:
    | "status"
    | "run_name"
    | "start_time"
    | "end_time"
    | "run_id"
    | "artifact_uri"
    | "name"
    | "experiment_id"
    | "creation_time"
    | "last_update_time",
): FilterField => ({
  entity: "attribute",
  key,
});
const num = (field: FilterField, operator: NumericOperator, value: number): FilterAst => ({
  type: "numeric",
  field,
  operator,
  value,
});
const str = (field: FilterField, operator: StringOperator, value: string): FilterAst => ({
  type: "string",
  field,
  operator,
  value,
});
const isIn = (field: FilterField, values: string[], negated = false): FilterAst => ({
  type: "in",
  field,
  negated,
  values,
});
const and = (...operands: FilterAst[]): FilterAst => ({ type: "and", operands });
const or = (...operands: FilterAst[]): FilterAst => ({ type: "or", operands });
const not = (operand: FilterAst): FilterAst => ({ type: "not", operand });

const a = num(metric("a"), ">", 1);
const b = num(metric("b"), ">", 2);
const c = num(metric("c"), ">", 3);

const VALID_RUN_FILTERS: Array<[string, FilterAst | undefined]> = [
  ["metrics.acc > 0.9", num(metric("acc"), ">", 0.9)],
  ["metrics.acc>=1e-3", num(metric("acc"), ">=", 0.001)],
  ["metrics.loss < -1.5", num(metric("loss"), "<", -1.5)],
  ["metrics.loss <= .5", num(metric("loss"), "<=", 0.5)],
  ["metrics.x = 3", num(metric("x"), "=", 3)],
  ["metrics.x != 3", num(metric("x"), "!=", 3)],
  ["metrics.x <> 3", num(metric("x"), "!=", 3)],
  ["metrics.x > -2.5E+2", num(metric("x"), ">", -250)],
  ["metric.x = 1", num(metric("x"), "=", 1)],
  ["params.lr = '0.1'", str(param("lr"), "=", "0.1")],
  ['param.lr != "0.1"', str(param("lr"), "!=", "0.1")],
  ["parameters.model LIKE 'C%'", str(param("model"), "LIKE", "C%")],
  ["params.model ilike 'c%'", str(param("model"), "ILIKE", "c%")],
  ["params.model NOT LIKE 'C%'", str(param("model"), "NOT LIKE", "C%")],
  ["params.model not ilike 'c%'", str(param("model"), "NOT ILIKE", "c%")],
  ["tags.team = 'it''s'", str(tag("team"), "=", "it's")],
  ["tags.\"my key\" = 'v'", str(tag("my key"), "=", "v")],
  ["tags.`mlflow.runName` = 'x'", str(tag("mlflow.runName"), "=", "x")],
  ["tags.mlflow.runName = 'x'", str(tag("mlflow.runName"), "=", "x")],
  ['metrics."val acc" > 0.5', num(metric("val acc"), ">", 0.5)],
  ["metrics.`a``b` > 1", num(metric("a`b"), ">", 1)],
  ['metrics."a""b" > 1', num(metric('a"b'), ">", 1)],
  ["params.`x' OR '1'='1` = 'a'", str(param("x' OR '1'='1"), "=", "a")],
  ["params.lr IN ('0.1', '0.01')", isIn(param("lr"), ["0.1", "0.01"])],
  ["params.lr NOT IN ('0.1')", isIn(param("lr"), ["0.1"], true)],
  ["tags.t in (\"a\",'b')", isIn(tag("t"), ["a", "b"])],
  ["attributes.run_id IN ('abc')", isIn(attr("run_id"), ["abc"])],
  ["status = 'FINISHED'", str(attr("status"), "=", "FINISHED")],
  ["attributes.status != 'RUNNING'", str(attr("status"), "!=", "RUNNING")],
  ["attr.run_name LIKE 'a%'", str(attr("run_name"), "LIKE", "a%")],
  ["attribute.run_name = 'x'", str(attr("run_name"), "=", "x")],
  ["run.start_time >= 1000", num(attr("start_time"), ">=", 1000)],
  ["end_time < 5", num(attr("end_time"), "<", 5)],
  ["artifact_uri = 's3://b/x'", str(attr("artifact_uri"), "=", "s3://b/x")],
  ["Metrics.A > 1", num(metric("A"), ">", 1)],
  ["ATTRIBUTES.Status = 'x'", str(attr("status"), "=", "x")],
  ["params.a-b/c = 'x'", str(param("a-b/c"), "=", "x")],
  ["params.1st = 'x'", str(param("1st"), "=", "x")],
  ["params.a. = 'x'", str(param("a."), "=", "x")],
  ["tags.k = ''", str(tag("k"), "=", "")],
  ["params.p = 'a\\b'", str(param("p"), "=", "a\\b")],
  ["metrics.a > 1 AND metrics.b > 2 OR metrics.c > 3", or(and(a, b), c)],
  ["metrics.a > 1 OR metrics.b > 2 AND metrics.c > 3", or(a, and(b, c))],
  ["NOT metrics.a > 1 AND metrics.b > 2", and(not(a), b)],
  ["NOT (metrics.a > 1 AND metrics.b > 2)", not(and(a, b))],
  ["(metrics.a > 1 OR metrics.b > 2) AND metrics.c > 3", and(or(a, b), c)],
  ["metrics.a > 1 OR (metrics.b > 2 AND NOT metrics.c > 3)", or(a, and(b, not(c)))],
  ["NOT NOT metrics.a > 1", not(not(a))],
  ["not metrics.a > 1 or not metrics.b > 2", or(not(a), not(b))],
  ["metrics.a > 1 and metrics.b > 2 AnD metrics.c > 3", and(a, b, c)],
  ["((metrics.a > 1))", a],
  ["params.p = 'x' AND(metrics.a>1)", and(str(param("p"), "=", "x"), a)],
  ["metrics.a > 1 OR NOT params.p IN ('x', 'y')", or(a, not(isIn(param("p"), ["x", "y"])))],
  ["\tmetrics.a\n>\r\n1 ", a],
  ["", undefined],
  ["   ", undefined],
];

/** [filter, 1-based position, text the message must contain] */
const INVALID_RUN_FILTERS: Array<[string, number, string]> = [
  ["metrics.a >", 12, "expected a value after '>', found the end of the input"],
  ["metrics.a > 'x'", 13, "expected a number"],
  ['metrics.a > "1"', 13, "expected a number"],
  ["params.p = 1", 12, "expected a quoted string"],
  ["params.p > '1'", 10, "'>' is not allowed for params.p"],
  ["tags.t <= 'a'", 8, "'<=' is not allowed"],
  ["metrics.a LIKE '1'", 11, "'LIKE' is not allowed for metrics.a"],
  ["metrics.a IN ('1')", 11, "'IN' is not allowed"],
  ["metrics.a NOT IN ('1')", 11, "'NOT IN' is not allowed"],
  ["status IN ('RUNNING')", 8, "'IN' is not allowed for status"],
  ["start_time = '5'", 14, "expected a number"],
  ["end_time LIKE '5'", 10, "'LIKE' is not allowed"],
  ["foo = 'x'", 1, "unknown attribute 'foo'"],
  ["name = 'x'", 1, "unknown attribute 'name'"],
  ["attributes.foo = 'x'", 1, "unknown attribute 'foo'"],
  ["metricz.a > 1", 1, "unknown entity 'metricz'"],
  ["metrics.a > 1 AND", 18, "expected an identifier"],
  ["metrics.a > 1 metrics.b > 2", 15, "expected AND, OR or the end of the filter"],
  ["(metrics.a > 1", 15, "expected ')' to close the '(' at position 1"],
  ["metrics.a > 1)", 14, "unbalanced ')'"],
  ["()", 2, "expected an identifier"],
  ["params.p = 'abc", 12, "unterminated string"],
  ['tags.t = "abc', 10, "unterminated string"],
  ["tags.`abc = 'x'", 6, "unterminated quoted key"],
  ["metrics.a ! 1", 11, "unexpected character '!'"],
  ["metrics.a > 1; DROP TABLE runs", 14, "unexpected character ';'"],
  ["params.p = 'x' -- comment", 16, "unexpected character '-'"],
  ['metrics. "a" > 1', 10, "expected a key directly after 'metrics.'"],
  ["metrics.'a' > 1", 9, "expected a key directly after 'metrics.'"],
  ["metrics. > 1", 10, "expected a key directly after 'metrics.'"],
  ['metrics."" > 1', 1, "the key in 'metrics.\"\"' is empty"],
  ["params.p IN ()", 14, "expected a value in the IN list, found ')'"],
  ["params.p IN ('a',)", 18, "expected a value after ','"],
  ["params.p IN ('a' 'b')", 18, "expected ',' or ')' in the IN list"],
  ["params.p IN 'a'", 13, "expected '(' after IN"],
  ["params.p IN (1)", 14, "expected a quoted string"],
  ["params.p NOT = 'a'", 14, "expected IN, LIKE or ILIKE after NOT"],
  ["metrics.a > 1.2.3", 13, "malformed number"],
  ["metrics.a > 5abc", 13, "malformed number"],
  ["metrics.a > 1e999", 13, "out of range"],
  ["AND metrics.a > 1", 1, "expected an identifier"],
  ["NOT", 4, "expected an identifier"],
  ["metrics.a == 1", 12, "expected a value after '='"],
  ["metrics.a", 10, "expected a comparison operator"],
  ["metrics.a 1", 11, "expected a comparison operator"],
  ["params.p LIKE 'abc\\'", 15, "must not end with the escape character"],
  [".5 > metrics.a", 1, "expected an identifier"],
  ["'x' = params.p", 1, "expected an identifier"],
  ["params.p = 'x' OR", 18, "expected an identifier"],
  ["params.p = 'a\u0000'", 12, "NUL"],
  ["metrics.a > 1 $", 15, "unexpected character '$'"],
];

function expectInvalid(fn: () => unknown, position: number, text: string, label = "filter") {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, "expected an error").toBeInstanceOf(TrackerError);
  const tracker = error as TrackerError;
  expect(tracker.code).toBe("INVALID_PARAMETER_VALUE");
  expect(tracker.message).toMatch(new RegExp(`^Invalid ${label}.* at position ${position}: `));
  expect(tracker.message).toContain(text);
}

describe("parseRunFilter: valid filters", () => {
  it.each(VALID_RUN_FILTERS)("%s", (filter, expected) => {
    expect(parseRunFilter(filter)).toEqual(expected);
  });

  it("treats undefined and null as no filter", () => {
    expect(parseRunFilter(undefined)).toBeUndefined();
    expect(parseRunFilter(null)).toBeUndefined();
  });
});

describe("parseRunFilter: invalid filters name the position and what was expected", () => {
  it.each(INVALID_RUN_FILTERS)("%s -> position %i", (filter, position, text) => {
    expectInvalid(() => parseRunFilter(filter), position, text);
  });

  it("uses the exact message format of the interface", () => {
    expect(() => parseRunFilter("metrics.loss > 1 AND metrics.acc >")).toThrow(
      "Invalid filter at position 35: expected a value after '>', found the end of the input",
    );
  });

  it("bounds nesting depth, comparisons and IN values", () => {
    const deep = `${"(".repeat(FILTER_LIMITS.maxDepth + 5)}metrics.a > 1${")".repeat(FILTER_LIMITS.maxDepth + 5)}`;
    expectInvalid(() => parseRunFilter(deep), FILTER_LIMITS.maxDepth + 1, "nested more than");
    const nots = `${"NOT ".repeat(FILTER_LIMITS.maxDepth + 1)}metrics.a > 1`;
    expect(() => parseRunFilter(nots)).toThrow(/nested more than/);
    const many = Array.from({ length: FILTER_LIMITS.maxComparisons + 1 }, (_, i) => `metrics.m${i} > 1`).join(" OR ");
    expect(() => parseRunFilter(many)).toThrow(/at most 500 comparisons/);
    const fine = Array.from({ length: 100 }, (_, i) => `metrics.m${i} > 1`).join(" OR ");
    expect(parseRunFilter(fine)).toMatchObject({ type: "or" });
    const bigIn = `params.p IN (${Array.from({ length: FILTER_LIMITS.maxInValues + 1 }, (_, i) => `'${i}'`).join(",")})`;
    expect(() => parseRunFilter(bigIn)).toThrow(/at most 10000 values/);
  });

  it("rejects a non-string filter", () => {
    expect(() => parseRunFilter(42 as unknown as string)).toThrow(TrackerError);
  });
});

describe("parseExperimentFilter", () => {
  const valid: Array<[string, FilterAst]> = [
    ["name = 'x'", str(attr("name"), "=", "x")],
    ["attributes.name LIKE 'a%'", str(attr("name"), "LIKE", "a%")],
    ["name ILIKE '%X%' AND tags.k = 'v'", and(str(attr("name"), "ILIKE", "%X%"), str(tag("k"), "=", "v"))],
    ["tags.`a b` != 'v'", str(tag("a b"), "!=", "v")],
    ["creation_time > 5", num(attr("creation_time"), ">", 5)],
    [
      "last_update_time <= 10 OR NOT name = 'n'",
      or(num(attr("last_update_time"), "<=", 10), not(str(attr("name"), "=", "n"))),
    ],
    ["experiment_id = '3'", str(attr("experiment_id"), "=", "3")],
    ["experiment_id != 007", str(attr("experiment_id"), "!=", "7")],
    ["experiment_id IN ('1', 2)", isIn(attr("experiment_id"), ["1", "2"])],
    ["tags.k IN ('a')", isIn(tag("k"), ["a"])],
  ];
  it.each(valid)("%s", (filter, expected) => {
    expect(parseExperimentFilter(filter)).toEqual(expected);
  });

  const invalid: Array<[string, number, string]> = [
    ["metrics.a > 1", 1, "unknown entity 'metrics'"],
    ["params.p = 'x'", 1, "unknown entity 'params'"],
    ["run_name = 'x'", 1, "unknown attribute 'run_name'"],
    ["experiment_id = 'abc'", 17, "expected an experiment id"],
    ["experiment_id > 1", 15, "'>' is not allowed for experiment_id"],
    ["experiment_id LIKE '1'", 15, "'LIKE' is not allowed"],
    ["name > 'a'", 6, "'>' is not allowed for name"],
    ["name IN ('a')", 6, "'IN' is not allowed for name"],
    ["creation_time = 'x'", 17, "expected a number"],
  ];
  it.each(invalid)("%s -> position %i", (filter, position, text) => {
    expectInvalid(() => parseExperimentFilter(filter), position, text);
  });
});

describe("order_by parsing", () => {
  it("parses run order_by clauses", () => {
    expect(
      parseRunOrderBy([
        "metrics.acc DESC",
        "params.p",
        "attributes.start_time asc",
        'tags."a b" DESC',
        "run_id",
        "metric.`x y`",
        "end_time Desc",
      ]),
    ).toEqual([
      { field: metric("acc"), ascending: false },
      { field: param("p"), ascending: true },
      { field: attr("start_time"), ascending: true },
      { field: tag("a b"), ascending: false },
      { field: attr("run_id"), ascending: true },
      { field: metric("x y"), ascending: true },
      { field: attr("end_time"), ascending: false },
    ]);
    expect(parseRunOrderBy(undefined)).toEqual([]);
  });

  it("parses experiment order_by clauses", () => {
    expect(
      parseExperimentOrderBy(["name", "experiment_id DESC", "attributes.last_update_time", "creation_time ASC"]),
    ).toEqual([
      { field: attr("name"), ascending: true },
      { field: attr("experiment_id"), ascending: false },
      { field: attr("last_update_time"), ascending: true },
      { field: attr("creation_time"), ascending: true },
    ]);
  });

  const invalidRun: Array<[string, number, string]> = [
    ["metrics.acc DOWN", 13, "expected ASC, DESC or the end of the clause"],
    ["", 1, "expected an identifier"],
    ["metrics.a DESC extra", 16, "expected the end of the clause"],
    ["foo", 1, "unknown attribute 'foo'"],
    ["metrics.", 9, "expected a key directly after"],
    ["DESC", 1, "unknown attribute 'DESC'"],
    ["metrics.a, metrics.b", 10, "expected ASC, DESC or the end of the clause after metrics.a, found ','"],
  ];
  it.each(invalidRun)("run order_by %j -> position %i", (clause, position, text) => {
    expectInvalid(
      () => parseRunOrderBy([clause]),
      position,
      text,
      `order_by clause '${clause.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'`,
    );
  });

  it("rejects experiment order_by on tags or run attributes, and too many clauses", () => {
    expect(() => parseExperimentOrderBy(["tags.x"])).toThrow(
      /Invalid order_by clause 'tags.x' at position 1: tags.x cannot be used to order experiments/,
    );
    expect(() => parseExperimentOrderBy(["run_name"])).toThrow(/unknown attribute 'run_name'/);
    expect(() => parseRunOrderBy(Array.from({ length: 11 }, () => "start_time"))).toThrow(/at most 10 clauses/);
    expect(() => parseRunOrderBy([1 as unknown as string])).toThrow(TrackerError);
  });
});

describe("tokenize", () => {
  const fail = (offset: number, message: string): never => {
    throw new Error(`${offset}: ${message}`);
  };
  it("produces positioned tokens", () => {
    expect(tokenize("tags.`a` <> 'it''s' (1,-2.5e3)", fail).map((t) => [t.kind, t.value, t.start])).toEqual([
      ["word", "tags.", 0],
      ["backtick", "a", 5],
      ["op", "!=", 9],
      ["string", "it's", 12],
      ["lparen", "(", 20],
      ["number", "1", 21],
      ["comma", ",", 22],
      ["number", "-2.5e3", 23],
      ["rparen", ")", 29],
      ["eof", "", 30],
    ]);
  });
});

describe("parseRunFilter: dataset fields (MLflow 2.4+)", () => {
  it("resolves dataset.name, datasets.digest and dataset.context as string fields that allow IN", () => {
    expect(parseRunFilter("dataset.name = 'iris'")).toEqual({
      type: "string",
      field: { entity: "dataset", key: "name" },
      operator: "=",
      value: "iris",
    });
    expect(parseRunFilter("datasets.DIGEST IN ('a', 'b')")).toEqual({
      type: "in",
      field: { entity: "dataset", key: "digest" },
      negated: false,
      values: ["a", "b"],
    });
    expect(parseRunFilter("NOT dataset.context LIKE 'train%'")).toEqual({
      type: "not",
      operand: { type: "string", field: { entity: "dataset", key: "context" }, operator: "LIKE", value: "train%" },
    });
  });

  it("refuses other dataset fields, numbers, and ordering by a dataset field", () => {
    expect(() => parseRunFilter("dataset.size = 'x'")).toThrow(
      /unknown dataset field 'size'.*dataset\.name, dataset\.digest, dataset\.context/,
    );
    expect(() => parseRunFilter("dataset.name > 3")).toThrow();
    expect(() => parseRunOrderBy(["dataset.name"])).toThrow(/cannot be used to order runs/);
  });
});
