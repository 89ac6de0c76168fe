import { describe, expect, it } from "vitest";
import { loadWidths, parseWidths, saveWidths, WIDTHS_KEY } from "./column-widths";

describe("saved column widths", () => {
  it("keeps numbers within bounds and drops the rest", () => {
    expect(parseWidths('{"name":300,"metrics.acc":141.6,"x":"wide","y":5,"z":5000}')).toEqual({
      name: 300,
      "metrics.acc": 142,
    });
    expect(parseWidths("not json")).toEqual({});
    expect(parseWidths("[1,2]")).toEqual({});
    expect(parseWidths(null)).toEqual({});
  });

  it("round-trips through storage, and a refusing storage is not an error", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    saveWidths({ name: 320 }, storage);
    expect(store.get(WIDTHS_KEY)).toBe('{"name":320}');
    expect(loadWidths(storage)).toEqual({ name: 320 });
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(loadWidths(refusing)).toEqual({});
    expect(() => saveWidths({ name: 1 }, refusing)).not.toThrow();
  });
});
