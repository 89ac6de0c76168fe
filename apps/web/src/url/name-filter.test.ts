import { describe, expect, it } from "vitest";
import { nameFilter } from "./name-filter";

describe("nameFilter", () => {
  it("builds a case-insensitive substring filter, quotes doubled, nothing for blank input", () => {
    expect(nameFilter("  fraud ")).toBe("name ILIKE '%fraud%'");
    expect(nameFilter("o'neil")).toBe("name ILIKE '%o''neil%'");
    expect(nameFilter("   ")).toBeUndefined();
  });
});
