import { describe, expect, it } from "vitest";
import { ancestorsOf } from "./artifacts";

describe("ancestorsOf", () => {
  it("lists the folders on the way to a file", () => {
    expect(ancestorsOf("a/b/c.txt")).toEqual(["a", "a/b"]);
    expect(ancestorsOf("c.txt")).toEqual([]);
    expect(ancestorsOf(undefined)).toEqual([]);
  });
});

describe("MLmodel files", () => {
  it("are recognised by name, and their example is found beside them", async () => {
    const { isMlModelFile, siblingPath } = await import("./artifacts");
    expect(isMlModelFile("model/MLmodel")).toBe(true);
    expect(isMlModelFile("MLmodel")).toBe(true);
    expect(isMlModelFile("model/MLmodel.txt")).toBe(false);
    expect(siblingPath("model/MLmodel", "input_example.json")).toBe("model/input_example.json");
    expect(siblingPath("MLmodel", "x.json")).toBe("x.json");
  });
});
