import { thrownBy } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import {
  columnVocabulary,
  ORDER_BY_LIMITS,
  parseExperimentOrderBy,
  parseOrderBy,
  parseOrderTerms,
  parseRunOrderBy,
} from "./order-by.js";

const VERSION_COLUMNS = ["name", "version", "stage"] as const;
const versions = columnVocabulary("model versions", VERSION_COLUMNS, { version_number: "version" });

describe("one order_by parser for field and column searches", () => {
  it("reads the same clause the same way whatever the vocabulary", () => {
    expect(parseOrderTerms(["name desc", "STAGE Asc", "version"], versions)).toEqual([
      { field: { entity: "attribute", key: "name" }, ascending: false },
      { field: { entity: "attribute", key: "stage" }, ascending: true },
      { field: { entity: "attribute", key: "version" }, ascending: true },
    ]);
    expect(parseExperimentOrderBy(["name desc", "CREATION_TIME Asc"])).toEqual([
      { field: { entity: "attribute", key: "name" }, ascending: false },
      { field: { entity: "attribute", key: "creation_time" }, ascending: true },
    ]);
  });

  it("maps a column's other names to it", () => {
    expect(parseOrderBy(["version_number DESC"], VERSION_COLUMNS, { aliases: { version_number: "version" } })).toEqual([
      { column: "version", ascending: false },
    ]);
  });

  it("gives every search the same messages about the direction and what follows it", () => {
    expect(thrownBy(() => parseOrderTerms(["name UP"], versions)).message).toBe(
      "Invalid order_by clause 'name UP' at position 6: expected ASC, DESC or the end of the clause after name, found 'UP'; the direction is ASC or DESC",
    );
    expect(thrownBy(() => parseRunOrderBy(["metrics.a UP"])).message).toBe(
      "Invalid order_by clause 'metrics.a UP' at position 11: expected ASC, DESC or the end of the clause after metrics.a, found 'UP'; the direction is ASC or DESC",
    );
    expect(thrownBy(() => parseRunOrderBy(["metrics.a, metrics.b"])).message).toMatch(
      /found ','; give each clause as an order_by item of its own$/,
    );
    expect(thrownBy(() => parseOrderTerms(["name ASC NULLS"], versions)).message).toBe(
      "Invalid order_by clause 'name ASC NULLS' at position 10: expected the end of the clause, found 'NULLS'",
    );
  });

  it("names the search and what it may be ordered by when a field is unknown", () => {
    expect(thrownBy(() => parseOrderTerms(["run_id"], versions)).message).toBe(
      "Invalid order_by clause 'run_id' at position 1: unknown column 'run_id' for model versions; expected one of name, version, stage, version_number",
    );
    // Column searches have no prefixes: a prefixed word is an unknown column.
    expect(thrownBy(() => parseOrderTerms(["attributes.name"], versions)).message).toMatch(
      /unknown column 'attributes.name'/,
    );
    expect(thrownBy(() => parseOrderTerms(["metrics.acc"], versions)).message).toMatch(/unknown column 'metrics.acc'/);
    expect(thrownBy(() => parseRunOrderBy(["foo"])).message).toMatch(
      /unknown attribute 'foo' for runs; .*metrics, params and tags need their prefix/,
    );
    expect(thrownBy(() => parseExperimentOrderBy(["tags.team"])).message).toMatch(
      /tags.team cannot be used to order experiments/,
    );
  });

  it("refuses a field named twice in every search, however it is spelt", () => {
    for (const [parse, clauses] of [
      [(c: string[]) => parseOrderTerms(c, versions), ["version", "VERSION_NUMBER desc"]],
      [parseRunOrderBy, ["start_time", "attributes.START_TIME DESC"]],
      [parseRunOrderBy, ["metrics.acc", "metric.`acc`"]],
      [parseExperimentOrderBy, ["name", "attr.name"]],
    ] as const) {
      const error = thrownBy(() => parse([...clauses]));
      expect(error.code).toBe("INVALID_PARAMETER_VALUE");
      expect(error.message).toMatch(/^Invalid order_by clause '.*' at position 1: .* is named more than once/);
    }
    // Keys are case-sensitive, and a metric is not a param of the same key.
    expect(parseRunOrderBy(["metrics.acc", "metrics.ACC", "params.acc"])).toHaveLength(3);
  });

  it("bounds the list and its clauses the same way for every search", () => {
    const many = Array.from({ length: ORDER_BY_LIMITS.maxClauses + 1 }, (_, i) => `metrics.m${i}`);
    expect(thrownBy(() => parseRunOrderBy(many)).message).toBe(
      "Invalid order_by: at most 10 clauses are allowed, got 11",
    );
    const long = `name${" ".repeat(ORDER_BY_LIMITS.maxClauseLength)}`;
    expect(thrownBy(() => parseOrderTerms([long], versions)).message).toBe(
      "Invalid order_by clause: it is longer than 1000 characters",
    );
    expect(thrownBy(() => parseOrderTerms([7 as unknown as string], versions)).message).toBe(
      "Invalid order_by: every clause must be a string",
    );
    expect(thrownBy(() => parseOrderTerms("name" as unknown as string[], versions)).message).toBe(
      "Invalid order_by: it must be a list of strings",
    );
  });

  it("skips blank items of a column search (a query string's order_by=) and refuses them elsewhere", () => {
    expect(parseOrderBy(["", "  ", "name"], VERSION_COLUMNS)).toEqual([{ column: "name", ascending: true }]);
    expect(thrownBy(() => parseRunOrderBy([" "])).message).toMatch(/^Invalid order_by clause ' ' at position 2: /);
  });

  it("refuses injection attempts with the position of the first foreign character", () => {
    expect(thrownBy(() => parseOrderTerms(["name; DROP TABLE model_versions"], versions)).message).toMatch(
      /^Invalid order_by clause '.*' at position 5: unexpected character ';'/,
    );
  });
});
