import { describe, expect, it } from "vitest";
import { dropNullFields, pythonFloat } from "./request-body.js";

describe("pythonFloat", () => {
  it.each([
    [9, "9.0"],
    [0.1, "0.1"],
    [-2.5, "-2.5"],
    [0, "0.0"],
    [-0, "-0.0"],
    [1e-4, "0.0001"],
    [1.5e-5, "1.5e-05"],
    [1e16, "1e+16"],
    [1.5e300, "1.5e+300"],
    [123456789012345.6, "123456789012345.6"],
    [Number.POSITIVE_INFINITY, "inf"],
  ])("%s -> %s", (n, text) => {
    expect(pythonFloat(n)).toBe(text);
  });
});

describe("dropNullFields", () => {
  it("removes null fields at any depth and keeps null array items", () => {
    const body = { a: null, b: 1, c: { d: null, e: [null, { f: null, g: 2 }] } };
    dropNullFields(body);
    expect(body).toEqual({ b: 1, c: { e: [null, { g: 2 }] } });
  });
});
