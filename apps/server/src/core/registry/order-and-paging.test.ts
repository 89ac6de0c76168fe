import { thrownBy } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import { parseOrderBy, withTieBreaks } from "./order-by.js";
import { decodeKeysetToken, encodeKeysetToken } from "./page-token.js";
import { VERSION_SORT_COLUMNS, VERSION_TIE_BREAKS } from "./search.js";

const problem = thrownBy;

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
    expect(problem(() => parseOrderBy(["version", "VERSION desc"], VERSION_SORT_COLUMNS)).message).toMatch(
      /more than once/,
    );
  });
});

describe("registry keyset page tokens", () => {
  it("round-trips and refuses tokens of another search, another order or with wrong value types", () => {
    const token = encodeKeysetToken("s", "name+", ["abc"]);
    expect(decodeKeysetToken(token, "s", "name+", ["text"])).toEqual(["abc"]);
    expect(problem(() => decodeKeysetToken(token, "t", "name+", ["text"])).message).toMatch(/Invalid page token/);
    expect(problem(() => decodeKeysetToken(token, "s", "name-", ["text"])).message).toMatch(/another order_by/);
    expect(problem(() => decodeKeysetToken(token, "s", "name+", ["integer"])).message).toMatch(/Invalid page token/);
    expect(problem(() => decodeKeysetToken("bm90IGpzb24", "s", "name+", ["text"])).code).toBe(
      "INVALID_PARAMETER_VALUE",
    );
  });
});
