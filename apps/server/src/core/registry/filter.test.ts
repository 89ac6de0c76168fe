import { describe, expect, it } from "vitest";
import { parseFilter, tokenize } from "./filter.js";
import { parseOrderBy, withTieBreaks } from "./order-by.js";
import { decodeKeysetToken, encodeKeysetToken } from "./page-token.js";
import { MODEL_FILTER_COLUMNS, VERSION_FILTER_COLUMNS, VERSION_SORT_COLUMNS, VERSION_TIE_BREAKS } from "./search.js";

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error("expected an error");
};

describe("registry filter tokenizer", () => {
  it("splits words, single-quoted strings with '' escapes, operators and numbers", () => {
    expect(tokenize("name LIKE 'it''s' AND x>=1").map((t) => [t.kind, t.text])).toEqual([
      ["word", "name"],
      ["word", "LIKE"],
      ["string", "it's"],
      ["word", "AND"],
      ["word", "x"],
      ["operator", ">="],
      ["number", "1"],
      ["end", ""],
    ]);
  });

  it("keeps quotes, keywords and spaces inside strings", () => {
    expect(tokenize("name = ' AND name = ''x'' '")[2]).toMatchObject({ kind: "string", text: " AND name = 'x' " });
  });

  it("rejects an unclosed string and unknown characters", () => {
    expect(problem(() => tokenize("name = 'abc"))).toEqual({ code: "INVALID_PARAMETER_VALUE", message: expect.stringMatching(/not closed/) });
    expect(problem(() => tokenize("name = 'a' | 1")).message).toMatch(/unexpected character '\|' at position 12/);
  });
});

describe("registry filter parser", () => {
  it("gives no conditions for an absent or blank filter", () => {
    expect(parseFilter(undefined, MODEL_FILTER_COLUMNS)).toEqual([]);
    expect(parseFilter("   ", MODEL_FILTER_COLUMNS)).toEqual([]);
  });

  it("parses =, LIKE and ILIKE (keywords and columns in any case) joined by AND", () => {
    expect(parseFilter("name='a' and NAME like '%b' AND name ILike 'C_'", MODEL_FILTER_COLUMNS)).toEqual([
      { column: "name", comparator: "=", value: "a" },
      { column: "name", comparator: "LIKE", value: "%b" },
      { column: "name", comparator: "ILIKE", value: "C_" },
    ]);
    expect(parseFilter("run_id = 'r' AND source_path = 's3://x/y z'", VERSION_FILTER_COLUMNS)).toEqual([
      { column: "run_id", comparator: "=", value: "r" },
      { column: "source_path", comparator: "=", value: "s3://x/y z" },
    ]);
  });

  it("names the problem of a malformed filter", () => {
    const cases: Array<[string, RegExp]> = [
      ["tags.x = 'a'", /unknown column 'tags.x'/],
      ["name LIKE 'a'", /takes the comparator =, not 'LIKE'/],
      ["name = 'a' name = 'b'", /expected AND or the end of the filter but found 'name' at position 12/],
      ["name = 'a' AND", /expected a column .* but found the end of the filter/],
      ["name = `a`", /expected a string in single quotes/],
      ["`name` = 'a'", /without quotes/],
      ["name IN ('a')", /comparator/],
      ["= 'a'", /expected a column/],
    ];
    for (const [filter, message] of cases) {
      expect(problem(() => parseFilter(filter, VERSION_FILTER_COLUMNS))).toEqual({ code: "INVALID_PARAMETER_VALUE", message: expect.stringMatching(message) });
    }
  });
});

describe("registry order_by", () => {
  it("parses columns with optional directions and appends the tie-breaks not named", () => {
    const keys = parseOrderBy(["stage DESC", " name ", ""], VERSION_SORT_COLUMNS);
    expect(keys).toEqual([
      { column: "stage", ascending: false },
      { column: "name", ascending: true },
    ]);
    expect(withTieBreaks(keys, VERSION_TIE_BREAKS).map((k) => `${k.column} ${k.ascending ? "ASC" : "DESC"}`)).toEqual([
      "stage DESC",
      "name ASC",
      "last_updated_timestamp DESC",
      "version DESC",
    ]);
  });

  it("rejects unknown columns, bad directions, extra words and repeats", () => {
    expect(problem(() => parseOrderBy(["run_id"], VERSION_SORT_COLUMNS)).message).toMatch(/unknown column 'run_id'/);
    expect(problem(() => parseOrderBy(["name sideways"], VERSION_SORT_COLUMNS)).message).toMatch(/ASC or DESC/);
    expect(problem(() => parseOrderBy(["name ASC NULLS"], VERSION_SORT_COLUMNS)).message).toMatch(/expected/);
    expect(problem(() => parseOrderBy(["version", "VERSION desc"], VERSION_SORT_COLUMNS)).message).toMatch(/more than once/);
  });
});

describe("registry keyset page tokens", () => {
  it("round-trips and refuses tokens of another search, another order or with wrong value types", () => {
    const token = encodeKeysetToken("s", "name+", ["abc"]);
    expect(decodeKeysetToken(token, "s", "name+", ["text"])).toEqual(["abc"]);
    expect(problem(() => decodeKeysetToken(token, "t", "name+", ["text"])).message).toMatch(/Invalid page token/);
    expect(problem(() => decodeKeysetToken(token, "s", "name-", ["text"])).message).toMatch(/another order_by/);
    expect(problem(() => decodeKeysetToken(token, "s", "name+", ["integer"])).message).toMatch(/Invalid page token/);
    expect(problem(() => decodeKeysetToken("bm90IGpzb24", "s", "name+", ["text"])).code).toBe("INVALID_PARAMETER_VALUE");
  });
});
