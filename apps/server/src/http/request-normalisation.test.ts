import { describe, expect, it } from "vitest";
import { canonicalQuery } from "./request-normalisation.js";

describe("canonicalQuery", () => {
  it.each([
    ["", ""],
    ["a=1", "?a=1"],
    ["stages=Staging&stages=Production", "?stages=Staging&stages=Production"],
    ["stages[]=Staging&stages[]=Production", "?stages=Staging&stages=Production"],
    ["stages%5B%5D=Staging", "?stages=Staging"],
    ["experiment_ids%5B0%5D=1&experiment_ids%5B1%5D=2", "?experiment_ids=1&experiment_ids=2"],
    ["filter=name+LIKE+%27x%27", "?filter=name%20LIKE%20%27x%27"],
    ["filter=name = 'a(b)*!'", "?filter=name%20%3D%20%27a%28b%29%2A%21%27"],
    ["path=a/b.txt", "?path=a%2Fb.txt"],
    ["token=abc==", "?token=abc%3D%3D"],
    ["bad=%E0%A4%A", "?bad=%25E0%25A4%25A"],
    ["flag&&x=1", "?flag=&x=1"],
  ])("%s -> %s", (input, expected) => {
    expect(canonicalQuery(input)).toBe(expected);
  });
});
