import { describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import type { FilterAst } from "./ast.js";
import { compileExperimentFilter } from "./experiment-search.js";
import { parseExperimentFilter, parseRunFilter } from "./filter-parser.js";
import { keysetCondition, type SortColumn } from "./keyset.js";
import { decodePageToken, encodePageToken } from "./page-token.js";
import { compileRunFilter, runSortColumns } from "./run-search.js";

const compile = (filter: string) => {
  const ast = parseRunFilter(filter);
  if (!ast) throw new Error("empty");
  return compileRunFilter(ast);
};

describe("compileRunFilter", () => {
  it("never puts keys or values into the SQL text", () => {
    const hostile = `x'"; DROP TABLE runs; --`;
    const sql = compile(
      `params.\`${hostile}\` = 'v' OR tags."${hostile.replace(/"/g, '""')}" LIKE '${hostile.replace(/'/g, "''")}' OR metrics.\`${hostile}\` > 1`,
    );
    expect(sql.sql).not.toContain("DROP");
    expect(sql.bindings).toEqual([hostile, "v", hostile, hostile, hostile, "1"]);
    expect(sql.sql.split("?").length - 1).toBe(sql.bindings.length);
  });

  it("compiles metrics, params, tags and attributes to the documented shapes", () => {
    expect(compile("metrics.m >= 2")).toEqual({
      sql: "EXISTS (SELECT 1 FROM latest_metrics x WHERE x.run_uuid = runs.run_uuid AND x.key = ? AND x.value >= CAST(? AS double precision) AND x.value <> CAST('NaN' AS double precision))",
      bindings: ["m", "2"],
    });
    expect(compile("params.p != 'a'")).toEqual({
      sql: "EXISTS (SELECT 1 FROM params x WHERE x.run_uuid = runs.run_uuid AND x.key = ? AND x.value <> ?)",
      bindings: ["p", "a"],
    });
    expect(compile("NOT tags.t IN ('a', 'b')")).toEqual({
      sql: "NOT (EXISTS (SELECT 1 FROM tags x WHERE x.run_uuid = runs.run_uuid AND x.key = ? AND x.value IN (?, ?)))",
      bindings: ["t", "a", "b"],
    });
    expect(compile("end_time < 5 AND start_time > 1.5")).toEqual({
      sql: "((runs.end_time IS NOT NULL AND runs.end_time < CAST(? AS bigint)) AND runs.start_time > CAST(? AS numeric))",
      bindings: ["5", "1.5"],
    });
    expect(compile("run_id = 'r' OR status ILIKE 'f%'")).toEqual({
      sql: "(runs.run_uuid = ? OR runs.status ILIKE ?)",
      bindings: ["r", "f%"],
    });
  });

  it("rejects ASTs that are not run filters or would make the database fail", () => {
    const bad: FilterAst[] = [
      { type: "string", field: { entity: "attribute", key: "name" }, operator: "=", value: "x" },
      { type: "numeric", field: { entity: "attribute", key: "status" }, operator: ">", value: 1 },
      { type: "string", field: { entity: "attribute", key: "start_time" }, operator: "=", value: "1" },
      { type: "in", field: { entity: "attribute", key: "status" }, negated: false, values: ["x"] },
      { type: "in", field: { entity: "param", key: "p" }, negated: false, values: [] },
      { type: "string", field: { entity: "param", key: "p" }, operator: "LIKE", value: "abc\\" },
      { type: "string", field: { entity: "param", key: "p" }, operator: "=", value: "a\u0000" },
      { type: "numeric", field: { entity: "metric", key: "m" }, operator: ">", value: Number.NaN },
      { type: "and", operands: [] },
    ];
    for (const ast of bad) {
      expect(() => compileRunFilter(ast), JSON.stringify(ast)).toThrow(TrackerError);
    }
    const experimentAst = parseExperimentFilter("name = 'x'");
    if (!experimentAst) throw new Error("empty");
    expect(() => compileRunFilter(experimentAst)).toThrow(/not a run attribute/);
    const runAst = parseRunFilter("params.p = 'x'");
    if (!runAst) throw new Error("empty");
    expect(() => compileExperimentFilter(runAst)).toThrow(TrackerError);
  });
});

describe("sort columns and keyset conditions", () => {
  it("adds the tie-breakers and splits nullable values into a rank and a value", () => {
    expect(runSortColumns([]).columns.map((c) => [c.sql, c.descending])).toEqual([
      ["runs.start_time", true],
      ["runs.run_uuid", false],
    ]);
    const withMetric = runSortColumns([{ field: { entity: "metric", key: "m" }, ascending: false }]);
    expect(withMetric.joins).toEqual([
      { sql: "LEFT JOIN latest_metrics AS o0 ON o0.run_uuid = runs.run_uuid AND o0.key = ?", bindings: ["m"] },
    ]);
    expect(withMetric.columns.map((c) => c.type)).toEqual(["integer", "double precision", "bigint", "bpchar"]);
    const byStart = runSortColumns([{ field: { entity: "attribute", key: "start_time" }, ascending: true }]);
    expect(byStart.columns.map((c) => [c.sql, c.descending])).toEqual([
      ["runs.start_time", false],
      ["runs.run_uuid", false],
    ]);
  });

  it("builds a nested keyset condition with one binding per comparison", () => {
    const columns: SortColumn[] = [
      { sql: "a", descending: false, type: "integer" },
      { sql: "b", descending: true, type: "text" },
      { sql: "c", descending: false, type: "bpchar" },
    ];
    expect(keysetCondition(columns, ["1", "x", "r"])).toEqual({
      sql: "a >= CAST(? AS integer) AND (a > CAST(? AS integer) OR (a = CAST(? AS integer) AND (b < CAST(? AS text) OR (b = CAST(? AS text) AND c > CAST(? AS bpchar)))))",
      bindings: ["1", "1", "1", "x", "x", "r"],
    });
  });

  it("round-trips tokens and validates every value against its column type", () => {
    const columns: SortColumn[] = [
      { sql: "a", descending: false, type: "double precision" },
      { sql: "b", descending: false, type: "bigint" },
    ];
    for (const values of [
      ["NaN", "1"],
      ["-Infinity", "-9223372036854775808"],
      ["1.5e-07", "0"],
      ["-0", "42"],
    ]) {
      expect(decodePageToken(encodePageToken("q", values), "q", columns)).toEqual(values);
    }
    for (const values of [
      ["1e400", "1"],
      ["1e-400", "1"],
      ["abc", "1"],
      ["1", "9223372036854775808"],
      ["1", "1.5"],
    ]) {
      expect(() => decodePageToken(encodePageToken("q", values), "q", columns), values.join()).toThrow(
        "Invalid page token",
      );
    }
    expect(() => decodePageToken(encodePageToken("q", ["1", "1"]), "other", columns)).toThrow("Invalid page token");
  });
});
