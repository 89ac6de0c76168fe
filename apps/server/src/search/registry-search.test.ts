import { thrownBy } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import type { Fail } from "./filter-lexer.js";
import { tokenize } from "./filter-lexer.js";
import { parseModelVersionFilter, parseRegisteredModelFilter } from "./filter-parser.js";
import { compileRegistryFilter } from "./registry-search.js";

/**
 * Registry filters (registered-models/search, model-versions/search) on the shared engine: the
 * same lexer and parser as runs and experiments, restricted to AND, single-quoted strings and each
 * operation's own fields and operators. (These were the tests of the registry's own parser; the
 * expected messages are now the shared engine's.)
 */

const problem = thrownBy;

const failing: Fail = (offset, message) => {
  throw new Error(`${offset}: ${message}`);
};

const string = (key: string, operator: string, value: string) => ({
  type: "string",
  field: { entity: "attribute", key },
  operator,
  value,
});

describe("registry filter tokens (the shared lexer)", () => {
  it("splits words, single-quoted strings with '' escapes, operators and numbers", () => {
    expect(tokenize("name LIKE 'it''s' AND x>=1", failing).map((t) => [t.kind, t.value])).toEqual([
      ["word", "name"],
      ["word", "LIKE"],
      ["string", "it's"],
      ["word", "AND"],
      ["word", "x"],
      ["op", ">="],
      ["number", "1"],
      ["eof", ""],
    ]);
  });

  it("keeps quotes, keywords and spaces inside strings", () => {
    expect(tokenize("name = ' AND name = ''x'' '", failing)[2]).toMatchObject({
      kind: "string",
      value: " AND name = 'x' ",
    });
  });

  it("rejects an unclosed string and unknown characters", () => {
    expect(problem(() => parseRegisteredModelFilter("name = 'abc"))).toEqual({
      code: "INVALID_PARAMETER_VALUE",
      message: expect.stringMatching(/unterminated string/),
    });
    expect(problem(() => parseRegisteredModelFilter("name = 'a' | 1")).message).toMatch(
      /position 12: unexpected character '\|'/,
    );
  });
});

describe("registry filter parser", () => {
  it("gives no filter for an absent or blank filter", () => {
    expect(parseRegisteredModelFilter(undefined)).toBeUndefined();
    expect(parseRegisteredModelFilter("   ")).toBeUndefined();
  });

  it("parses =, LIKE and ILIKE (keywords and fields in any case) joined by AND", () => {
    expect(parseRegisteredModelFilter("name='a' and NAME like '%b' AND name ILike 'C_'")).toEqual({
      type: "and",
      operands: [string("name", "=", "a"), string("name", "LIKE", "%b"), string("name", "ILIKE", "C_")],
    });
    expect(parseModelVersionFilter("run_id = 'r' AND source_path = 's3://x/y z'")).toEqual({
      type: "and",
      operands: [string("run_id", "=", "r"), string("source_path", "=", "s3://x/y z")],
    });
  });

  it("parses tag.<key> and tags.<key> (backquoted or plain keys) with =, !=, LIKE and ILIKE", () => {
    const tag = (key: string, operator: string, value: string) => ({
      type: "string",
      field: { entity: "tag", key },
      operator,
      value,
    });
    expect(parseRegisteredModelFilter("name LIKE 'x%' AND tag.`mlflow.prompt.is_prompt` != 'true'")).toEqual({
      type: "and",
      operands: [string("name", "LIKE", "x%"), tag("mlflow.prompt.is_prompt", "!=", "true")],
    });
    expect(parseModelVersionFilter("TAGS.team = 'a' and tag.team.sub like 'b%' AND tags.\"k 1\" ILIKE 'C'")).toEqual({
      type: "and",
      operands: [tag("team", "=", "a"), tag("team.sub", "LIKE", "b%"), tag("k 1", "ILIKE", "C")],
    });
  });

  it("names the problem of a malformed filter", () => {
    const cases: Array<[string, RegExp]> = [
      ["stage = 'a'", /unknown attribute 'stage' for model versions; expected one of name, run_id, source_path/],
      ["params.x = 'a'", /unknown entity 'params' in 'params.x'; expected tags$/],
      ["tags.x IN ('a')", /'IN' is not allowed for tags.x; it takes =, !=, LIKE, ILIKE/],
      ["tags.x NOT LIKE 'a'", /'NOT LIKE' is not allowed for tags.x/],
      ["tags.x > 'a'", /'>' is not allowed for tags.x/],
      ['tags.x = "a"', /expected a string in single quotes/],
      ["tags.`` = 'a'", /the key in 'tags.``' is empty/],
      ["name LIKE 'a'", /'LIKE' is not allowed for name; it takes = with a string in single quotes/],
      ["name = 'a' name = 'b'", /position 12: expected AND or the end of the filter, found 'name'/],
      ["name = 'a' AND", /expected an identifier: name, run_id, source_path or tags.<key>, found the end of the input/],
      ["name = `a`", /expected a string in single quotes after '='/],
      ["`name` = 'a'", /expected an identifier: name, run_id, source_path or tags.<key>, found `name`/],
      ["name IN ('a')", /'IN' is not allowed for name/],
      ["= 'a'", /expected an identifier: name, run_id, source_path or tags.<key>/],
      ["name = 'a' OR name = 'b'", /expected AND or the end of the filter, found 'OR'/],
      ["NOT name = 'a'", /expected an identifier/],
      ["(name = 'a')", /expected an identifier/],
      ['name = "a"', /expected a string in single quotes/],
      ["constructor = 'a'", /unknown attribute 'constructor'/],
    ];
    for (const [filter, message] of cases) {
      expect(
        problem(() => parseModelVersionFilter(filter)),
        filter,
      ).toEqual({ code: "INVALID_PARAMETER_VALUE", message: expect.stringMatching(message) });
    }
  });

  it("gives each operation its own fields: registered models only have name", () => {
    expect(problem(() => parseRegisteredModelFilter("run_id = 'x'")).message).toMatch(
      /unknown attribute 'run_id' for registered models; expected one of name/,
    );
    expect(problem(() => parseRegisteredModelFilter("name != 'x'")).message).toMatch(
      /'!=' is not allowed for name; it takes =, LIKE, ILIKE/,
    );
  });
});

describe("registry filter SQL", () => {
  const fields = {
    columns: { name: `"name"`, run_id: `"run_id"`, source_path: `"source"` },
    tags: { table: "model_tags", owner: "x.name = models.name" },
  };
  const tagSql = "EXISTS (SELECT 1 FROM model_tags x WHERE x.name = models.name AND x.key = ?";

  it("binds every value; LIKE and ILIKE match names containing the text", () => {
    expect(compileRegistryFilter(parseRegisteredModelFilter("name LIKE 'fr_ud' AND name = 'it''s'")!, fields)).toEqual({
      sql: `("name" LIKE ? AND "name" = ?)`,
      bindings: ["%fr_ud%", "it's"],
    });
    expect(compileRegistryFilter(parseModelVersionFilter("source_path = 's3://b/k'")!, fields)).toEqual({
      sql: `"source" = ?`,
      bindings: ["s3://b/k"],
    });
  });

  it("compiles a tag comparison to EXISTS over the tags, the pattern as written", () => {
    expect(compileRegistryFilter(parseRegisteredModelFilter("tags.team LIKE 'ri%' AND tag.k != 'v'")!, fields)).toEqual(
      {
        sql: `(${tagSql} AND x.value LIKE ?) AND ${tagSql} AND x.value <> ?))`,
        bindings: ["team", "ri%", "k", "v"],
      },
    );
  });

  it("lets items without MLflow's prompt marker match != 'true' and = 'false' only", () => {
    const marker = "mlflow.prompt.is_prompt";
    for (const filter of ["tag.`mlflow.prompt.is_prompt` != 'true'", "tags.`mlflow.prompt.is_prompt` = 'false'"]) {
      const compiled = compileRegistryFilter(parseRegisteredModelFilter(filter)!, fields);
      expect(compiled.sql, filter).toMatch(
        /^\(EXISTS .* OR NOT EXISTS \(SELECT 1 FROM model_tags x WHERE x.name = models.name AND x.key = \?\)\)$/,
      );
      expect(compiled.bindings[0]).toBe(marker);
      expect(compiled.bindings.at(-1)).toBe(marker);
    }
    for (const filter of ["tag.`mlflow.prompt.is_prompt` = 'true'", "tag.`mlflow.prompt.is_prompt` != 'false'"]) {
      expect(compileRegistryFilter(parseRegisteredModelFilter(filter)!, fields).sql, filter).not.toMatch(/NOT EXISTS/);
    }
  });
});
