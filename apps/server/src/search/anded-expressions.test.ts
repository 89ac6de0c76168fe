import { describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import { andedExpressionsToFilter, escapeLike } from "./anded-expressions.js";
import { compileRunFilter } from "./run-search.js";

describe("andedExpressionsToFilter", () => {
  it("converts metric clauses (float and double) with every comparator", () => {
    const cases: Array<[string, string]> = [
      [">", ">"],
      [">=", ">="],
      ["==", "="],
      ["!=", "!="],
      ["<=", "<="],
      ["<", "<"],
    ];
    for (const [comparator, operator] of cases) {
      expect(andedExpressionsToFilter([{ metric: { key: "acc", float: { comparator, value: 0.5 } } }])).toEqual({
        type: "numeric",
        field: { entity: "metric", key: "acc" },
        operator,
        value: 0.5,
      });
      expect(andedExpressionsToFilter([{ metric: { key: "acc", double: { comparator, value: "2" } } }])).toMatchObject({
        operator,
        value: 2,
      });
    }
    expect(
      andedExpressionsToFilter([{ metric: { key: "m", double: { comparator: "<", value: "-Infinity" } } }]),
    ).toMatchObject({ value: -Infinity });
  });

  it("converts parameter clauses; ~ is a case-sensitive substring match with wildcards escaped", () => {
    expect(andedExpressionsToFilter([{ parameter: { key: "p", string: { comparator: "==", value: "x" } } }])).toEqual({
      type: "string",
      field: { entity: "param", key: "p" },
      operator: "=",
      value: "x",
    });
    expect(
      andedExpressionsToFilter([{ parameter: { key: "p", string: { comparator: "!=", value: "x" } } }]),
    ).toMatchObject({ operator: "!=" });
    expect(
      andedExpressionsToFilter([{ parameter: { key: "p", string: { comparator: "~", value: "50%_a\\b" } } }]),
    ).toEqual({
      type: "string",
      field: { entity: "param", key: "p" },
      operator: "LIKE",
      value: "%50\\%\\_a\\\\b%",
    });
    expect(escapeLike("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
  });

  it("ANDs several expressions and treats none as no filter", () => {
    const ast = andedExpressionsToFilter([
      { metric: { key: "a", double: { comparator: ">", value: 1 } } },
      { parameter: { key: "p", string: { comparator: "==", value: "v" } } },
    ]);
    expect(ast).toMatchObject({ type: "and", operands: [{ type: "numeric" }, { type: "string" }] });
    expect(andedExpressionsToFilter([])).toBeUndefined();
    expect(andedExpressionsToFilter(undefined)).toBeUndefined();
    expect(andedExpressionsToFilter(null)).toBeUndefined();
  });

  it("compiles to SQL with every key and value bound", () => {
    const ast = andedExpressionsToFilter([
      { metric: { key: "a'; DROP TABLE runs; --", double: { comparator: ">", value: 1 } } },
      { parameter: { key: "p", string: { comparator: "~", value: "'; DROP TABLE runs; --" } } },
    ]);
    if (!ast) throw new Error("no ast");
    const sql = compileRunFilter(ast);
    expect(sql.sql).not.toContain("DROP");
    expect(sql.bindings).toEqual(["a'; DROP TABLE runs; --", "1", "p", "%'; DROP TABLE runs; --%"]);
  });

  const invalid: unknown[] = [
    "x",
    {},
    [null],
    [1],
    [{}],
    [
      {
        metric: { key: "a", double: { comparator: ">", value: 1 } },
        parameter: { key: "p", string: { comparator: "==", value: "v" } },
      },
    ],
    [{ metric: "a" }],
    [{ metric: { double: { comparator: ">", value: 1 } } }],
    [{ metric: { key: "", double: { comparator: ">", value: 1 } } }],
    [{ metric: { key: 5, double: { comparator: ">", value: 1 } } }],
    [{ metric: { key: "a" } }],
    [{ metric: { key: "a", float: { comparator: ">", value: 1 }, double: { comparator: ">", value: 1 } } }],
    [{ metric: { key: "a", double: { comparator: "=", value: 1 } } }],
    [{ metric: { key: "a", double: { comparator: "~", value: 1 } } }],
    [{ metric: { key: "a", double: { comparator: ">" } } }],
    [{ metric: { key: "a", double: { comparator: ">", value: "abc" } } }],
    [{ metric: { key: "a", double: { comparator: ">", value: "NaN" } } }],
    [{ metric: { key: "a", double: { comparator: ">", value: true } } }],
    [{ metric: { key: "a", double: [">", 1] } }],
    [{ parameter: { key: "p" } }],
    [{ parameter: { key: "p", string: { comparator: ">", value: "v" } } }],
    [{ parameter: { key: "p", string: { comparator: "==", value: 1 } } }],
    [{ parameter: { key: "p", string: { comparator: "==", value: "a\u0000" } } }],
    [{ parameter: { key: "p\u0000", string: { comparator: "==", value: "a" } } }],
    [{ parameter: { key: "p", string: { comparator: "LIKE", value: "a" } } }],
  ];
  it.each(invalid.map((x) => [JSON.stringify(x), x]))("rejects %s", (_label, expressions) => {
    let error: unknown;
    try {
      andedExpressionsToFilter(expressions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TrackerError);
    expect((error as TrackerError).code).toBe("INVALID_PARAMETER_VALUE");
    expect((error as TrackerError).message).toMatch(/^Invalid anded_expressions/);
  });
});
