import { describe, expect, it } from "vitest";
import { parseLoggedModelFilter } from "./filter-parser.js";
import { compileLoggedModelOrder, compileLoggedModelWhere } from "./logged-model-search.js";

const where = (filter: string | undefined, datasets: Array<{ name: string; digest?: string }> = []) =>
  compileLoggedModelWhere({ experimentIds: [1], filter: parseLoggedModelFilter(filter), datasets });

describe("logged-model filters", () => {
  it("compiles metrics, params, tags and attributes, with MLflow's aliases", () => {
    const compiled = where(
      "metrics.acc > 0.5 AND params.lr = '0.1' AND tags.t IN ('a', 'b') AND creation_time > 5 AND name LIKE 'm%'",
    );
    expect(compiled.sql).toContain("FROM logged_model_metrics x WHERE x.model_id = m.model_id AND x.key = ?");
    expect(compiled.sql).toContain("FROM logged_model_params x");
    expect(compiled.sql).toContain("x.value IN (?, ?)");
    expect(compiled.sql).toContain("m.creation_timestamp_ms > CAST(? AS bigint)");
    expect(compiled.sql).toContain("m.lifecycle_stage = 'active'");
    expect(compiled.bindings).toEqual(["1", "acc", "0.5", "lr", "0.1", "t", "a", "b", "5", "m%"]);
  });

  it("restricts metric comparisons to the datasets, and models to them without one", () => {
    const withMetric = where("metrics.acc < 1", [{ name: "val", digest: "d" }, { name: "train" }]);
    expect(withMetric.bindings).toEqual(["1", "acc", "1", "val", "d", "train"]);
    const alone = where(undefined, [{ name: "val" }]);
    expect(alone.sql).toContain(
      "EXISTS (SELECT 1 FROM logged_model_metrics x WHERE x.model_id = m.model_id AND x.dataset_name = ?)",
    );
  });

  it("maps MLflow's status names and refuses others", () => {
    expect(where("status = 'READY'").bindings).toEqual(["1", "2"]);
    expect(where("status NOT IN ('PENDING', 'FAILED')").bindings).toEqual(["1", "1", "3"]);
    expect(() => where("status = 'DONE'")).toThrow("Unknown model status in filter: 'DONE'");
    expect(() => where("status LIKE 'R%'")).toThrow(/not allowed for status/);
  });

  it("joins comparisons with AND only and knows MLflow's entities", () => {
    expect(() => parseLoggedModelFilter("name = 'a' OR name = 'b'")).toThrow(/expected AND or the end/);
    expect(() => parseLoggedModelFilter("metric.acc > 1")).toThrow(/unknown entity 'metric'/);
    expect(() => parseLoggedModelFilter("metrics.acc > 'x'")).toThrow(/expected a number/);
  });
});

describe("logged-model order_by", () => {
  it("appends MLflow's tie-breaks unless named, and puts missing values last", () => {
    expect(compileLoggedModelOrder([]).sql).toBe("m.creation_timestamp_ms DESC, m.model_id ASC");
    const byName = compileLoggedModelOrder([{ fieldName: "creation_timestamp", ascending: true }]);
    expect(byName.sql).toBe("(m.creation_timestamp_ms IS NULL), m.creation_timestamp_ms ASC, m.model_id ASC");
    const byMetric = compileLoggedModelOrder([{ fieldName: "metrics.acc", ascending: false, datasetName: "val" }]);
    expect(byMetric.sql).toMatch(/^\(\(SELECT x\.value .* IS NULL\), \(SELECT x\.value .*\) DESC, m\.creation/s);
    expect(byMetric.bindings).toEqual(["acc", "val", "acc", "val"]);
  });

  it("refuses fields MLflow refuses", () => {
    expect(() => compileLoggedModelOrder([{ fieldName: "nope", ascending: true }])).toThrow(
      "Invalid order by field name: nope",
    );
    expect(() => compileLoggedModelOrder([{ fieldName: "params.lr", ascending: true }])).toThrow(
      "Invalid order by field name: params.lr. Only metrics are supported.",
    );
  });
});
