import { thrownBy } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import type { SortColumn } from "./keyset.js";
import { orderSignature, parseOrderBy, type SortKey, withTieBreaks } from "./order-by.js";
import { decodeOffsetToken, decodePageToken, encodeOffsetToken, encodePageToken } from "./page-token.js";

/** model-versions/search's columns and tie-breaks (registry-search.ts). */
const VERSION_SORT_COLUMNS = ["name", "version", "stage", "last_updated_timestamp", "creation_timestamp"] as const;
const VERSION_TIE_BREAKS: SortKey<(typeof VERSION_SORT_COLUMNS)[number]>[] = [
  { column: "last_updated_timestamp", ascending: false },
  { column: "name", ascending: true },
  { column: "version", ascending: false },
];

const problem = thrownBy;

describe("column order_by (registry searches)", () => {
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

describe("keyset page tokens with an order signature (registry searches)", () => {
  const text: SortColumn[] = [{ sql: "name", descending: false, type: "text" }];
  const integer: SortColumn[] = [{ sql: "version", descending: false, type: "integer" }];

  it("round-trips and refuses tokens of another search, another order or with wrong value types", () => {
    const order = orderSignature([{ column: "name", ascending: true }]);
    expect(order).toBe("name+");
    const token = encodePageToken("s", ["abc"], order);
    expect(decodePageToken(token, "s", text, "name+")).toEqual(["abc"]);
    expect(problem(() => decodePageToken(token, "t", text, "name+")).message).toBe("Invalid page token");
    expect(problem(() => decodePageToken(token, "s", text, "name-")).message).toBe(
      "Invalid page token: it was issued for another order_by",
    );
    expect(problem(() => decodePageToken(token, "s", text)).message).toBe("Invalid page token");
    expect(problem(() => decodePageToken(token, "s", integer, "name+")).message).toBe("Invalid page token");
    expect(problem(() => decodePageToken("bm90IGpzb24", "s", text, "name+")).code).toBe("INVALID_PARAMETER_VALUE");
    // A token without an order is not one with an order.
    expect(problem(() => decodePageToken(encodePageToken("s", ["abc"]), "s", text, "name+")).message).toMatch(
      /another order_by/,
    );
  });
});

describe("offset page tokens (artifact listings)", () => {
  it("round-trips and refuses anything else, tampered tokens included", () => {
    expect(decodeOffsetToken(encodeOffsetToken(1000))).toBe(1000);
    const token = encodeOffsetToken(1000);
    for (const bad of [
      "",
      "%%%",
      `${token}=`,
      `${token.slice(0, -1)}!`,
      Buffer.from(JSON.stringify({ offset: -1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ offset: 1.5 })).toString("base64url"),
      Buffer.from(JSON.stringify([1])).toString("base64url"),
      encodePageToken("s", ["1"]),
    ]) {
      const error = problem(() => decodeOffsetToken(bad));
      expect(error.code, bad).toBe("INVALID_PARAMETER_VALUE");
      expect(error.message).toBe("Invalid page token");
    }
  });
});
