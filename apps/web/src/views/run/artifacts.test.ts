import { describe, expect, it } from "vitest";
import { ancestorsOf } from "./artifacts";

describe("ancestorsOf", () => {
  it("lists the folders on the way to a file", () => {
    expect(ancestorsOf("a/b/c.txt")).toEqual(["a", "a/b"]);
    expect(ancestorsOf("c.txt")).toEqual([]);
    expect(ancestorsOf(undefined)).toEqual([]);
  });
});
