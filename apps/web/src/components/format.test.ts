import { describe, expect, it } from "vitest";
import { formatValue } from "./format";

describe("formatValue", () => {
  it("writes small and large numbers in exponent form without trailing zeros", () => {
    expect(formatValue(-0.00081)).toBe("-8.1e-4");
    expect(formatValue(0.000123456789)).toBe("1.2346e-4");
    expect(formatValue(12345678.9)).toBe("1.2346e+7");
    expect(formatValue(0.93)).toBe("0.93");
    expect(formatValue(1 / 3)).toBe("0.333333");
    expect(formatValue(42)).toBe("42");
    expect(formatValue(Number.NaN)).toBe("NaN");
    expect(formatValue(undefined)).toBe("");
  });
});
