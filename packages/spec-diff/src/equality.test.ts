import { describe, expect, it } from "vitest";
import { equality } from "./equality.js";
import type { JsonObject } from "./json.js";

const doc = (idType: string): JsonObject => ({
  components: {
    schemas: {
      Id: { type: idType },
      Node: {
        type: "object",
        properties: { id: { $ref: "#/components/schemas/Id" }, next: { $ref: "#/components/schemas/Node" } },
      },
    },
  },
});

describe("equality", () => {
  it("follows $refs on each side, recursive ones included", () => {
    const node = { $ref: "#/components/schemas/Node" };
    expect(equality(doc("string"), doc("string"))(node, { ...node })).toBe(true);
    expect(equality(doc("string"), doc("integer"))(node, { ...node })).toBe(false);
  });

  it("gives the same answers when asked again (memoised per pair of objects)", () => {
    const before = doc("string");
    const after = doc("integer");
    const equal = equality(before, after);
    const schemas = (d: JsonObject) => (d.components as JsonObject).schemas as JsonObject;
    for (let round = 0; round < 2; round++) {
      expect(equal(schemas(before).Node ?? null, schemas(after).Node ?? null)).toBe(false);
      expect(equal(schemas(before).Id ?? null, schemas(after).Id ?? null)).toBe(false);
      expect(equal(before, after)).toBe(false);
    }
    const same = equality(doc("string"), doc("string"));
    expect(same(doc("string"), doc("string"))).toBe(true);
  });

  it("takes unresolvable references as equal when they are the same string, or as different when asked to", () => {
    const broken = { $ref: "#/components/schemas/Missing" };
    expect(equality({}, {})(broken, { ...broken })).toBe(true);
    expect(equality({}, {}, { unresolved: "differ" })(broken, { ...broken })).toBe(false);
  });
});
