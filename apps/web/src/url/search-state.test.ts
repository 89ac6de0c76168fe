import { describe, expect, it } from "vitest";
import { href, patchSearch, readList } from "./search-state";

describe("URL state", () => {
  it("sets, replaces and removes keys, sorted for stable URLs", () => {
    expect(patchSearch("?b=2&a=1", { c: "3" })).toBe("?a=1&b=2&c=3");
    expect(patchSearch("?a=1&b=2", { a: undefined, b: "" })).toBe("");
    expect(patchSearch("?a=1", { a: "x y&z" })).toBe("?a=x+y%26z");
  });
  it("writes lists comma-separated, booleans as 1, and drops empty lists and false", () => {
    expect(patchSearch("", { runs: ["r1", "r2"], live: true, n: 5 })).toBe("?live=1&n=5&runs=r1%2Cr2");
    expect(patchSearch("?runs=r1&live=1", { runs: [], live: false })).toBe("");
  });
  it("reads lists back, ignoring empty items", () => {
    const params = new URLSearchParams(patchSearch("", { cols: ["metrics.acc", "params.lr"] }));
    expect(readList(params, "cols")).toEqual(["metrics.acc", "params.lr"]);
    expect(readList(new URLSearchParams("x=a,,b"), "x")).toEqual(["a", "b"]);
    expect(readList(params, "missing")).toEqual([]);
  });
  it("round-trips a filter with quotes, parentheses and operators", () => {
    const filter = "(metrics.acc > 0.9 OR params.model IN ('a', 'b')) AND NOT tags.x = 'y'";
    const params = new URLSearchParams(patchSearch("", { filter }));
    expect(params.get("filter")).toBe(filter);
    expect(href("/runs", { e: ["1", "2"] })).toBe("/runs?e=1%2C2");
  });
});
