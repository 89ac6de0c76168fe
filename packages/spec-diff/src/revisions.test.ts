// docs/revisions.md must match the specs, and the A -> B and B -> C reports must name the changes
// every reviewer of these revisions looks for.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { specFile, type Revision } from "@tracker/spec";
import { diffDocuments } from "./diff.js";
import { bundleFile } from "./load.js";
import { renderRevisionsDocument, REVISIONS_DOCUMENT } from "./revisions.js";
import type { Change, Classification, OperationReport, Report } from "./types.js";

describe("docs/revisions.md", () => {
  it("is up to date with spec/rev-{a,b,c}.yaml (regenerate with `pnpm spec:diff:docs`)", async () => {
    const expected = await renderRevisionsDocument();
    const committed = fs.existsSync(REVISIONS_DOCUMENT) ? fs.readFileSync(REVISIONS_DOCUMENT, "utf8") : "";
    expect(committed, "docs/revisions.md is stale: run `pnpm spec:diff:docs`").toBe(expected);
  });
});

async function compare(from: Revision, to: Revision): Promise<Report> {
  return diffDocuments(await bundleFile(specFile(from)), await bundleFile(specFile(to)));
}

function operation(report: Report, key: string): OperationReport {
  const op = report.operations.find((o) => o.key === key);
  if (!op) throw new Error(`${key} is not in the report`);
  return op;
}

function find(op: OperationReport, predicate: (c: Change) => boolean): Change {
  const change = op.changes.find(predicate);
  if (!change)
    throw new Error(
      `no such change in ${op.key}:\n${op.changes.map((c) => `  ${c.classification} ${c.where}: ${c.message}`).join("\n")}`,
    );
  return change;
}

function statusOf(op: OperationReport): { status: string; classification: Classification | undefined } {
  return { status: op.status, classification: op.changes[0]?.classification };
}

describe("revision A -> B", () => {
  let report: Report;
  beforeAll(async () => {
    report = await compare("a", "b");
  });

  it("adds delete and restore of experiments and runs (non-breaking)", () => {
    for (const key of [
      "POST experiments/delete",
      "POST experiments/restore",
      "POST runs/delete",
      "POST runs/restore",
    ]) {
      expect(statusOf(operation(report, key))).toEqual({ status: "added", classification: "non-breaking" });
    }
  });

  it("adds DoubleClause to the metric search expression (non-breaking)", () => {
    const change = find(
      operation(report, "POST runs/search"),
      (c) => c.kind === "field-added" && c.field === "anded_expressions[].metric.double",
    );
    expect(change.classification).toBe("non-breaking");
    expect(change.message).toContain("(DoubleClause)");
  });

  it("deprecates FloatClause", () => {
    const change = find(
      operation(report, "POST runs/search"),
      (c) => c.kind === "deprecated" && c.field === "anded_expressions[].metric.float",
    );
    expect(change.message).toBe("`anded_expressions[].metric.float` (FloatClause) deprecated");
    expect(change.classification).toBe("annotation");
  });

  it("removes artifacts/get (breaking) and moves RunInfo.tags to RunData.tags", () => {
    expect(statusOf(operation(report, "GET artifacts/get"))).toEqual({ status: "removed", classification: "breaking" });
    const runs = operation(report, "GET runs/get");
    expect(find(runs, (c) => c.field === "run.info.tags").classification).toBe("breaking");
    expect(find(runs, (c) => c.field === "run.data.tags").kind).toBe("field-added");
  });

  it("keeps the prefix", () => {
    expect(report.prefixMoves).toEqual([]);
  });
});

describe("revision B -> C", () => {
  let report: Report;
  beforeAll(async () => {
    report = await compare("b", "c");
  });

  it("reports the experiment_id type change int64 -> string as breaking, in requests and responses", () => {
    const create = find(
      operation(report, "POST experiments/create"),
      (c) => c.kind === "type-changed" && c.field === "experiment_id",
    );
    expect(create).toMatchObject({
      classification: "breaking",
      where: "response 200",
      rule: "type-change-is-breaking",
    });
    expect(create.message).toMatch(/^type of `experiment_id` changed: integer \(int64\) → string/);
    const get = find(
      operation(report, "GET experiments/get"),
      (c) => c.kind === "type-changed" && c.where === "query parameter",
    );
    expect(get.classification).toBe("breaking");
    const restore = find(
      operation(report, "POST experiments/restore"),
      (c) => c.kind === "type-changed" && c.field === "experiment_id",
    );
    expect(restore).toMatchObject({ classification: "breaking", where: "request body" });
  });

  it("deprecates run_uuid", () => {
    for (const key of ["GET runs/get", "POST runs/update", "POST runs/log-metric", "GET metrics/get-history"]) {
      const change = find(
        operation(report, key),
        (c) => c.kind === "deprecated" && (c.field ?? "").endsWith("run_uuid"),
      );
      expect(change.classification).toBe("annotation");
    }
  });

  it("removes params/get and metrics/get (breaking)", () => {
    expect(statusOf(operation(report, "GET params/get"))).toEqual({ status: "removed", classification: "breaking" });
    expect(statusOf(operation(report, "GET metrics/get"))).toEqual({ status: "removed", classification: "breaking" });
  });

  it("removes the source fields (breaking), from the run's request and from RunInfo", () => {
    const create = operation(report, "POST runs/create");
    for (const field of ["source_type", "source_name", "source_version", "entry_point_name"]) {
      expect(find(create, (c) => c.kind === "field-removed" && c.field === field).classification).toBe("breaking");
      expect(find(create, (c) => c.kind === "field-removed" && c.field === `run.info.${field}`).classification).toBe(
        "breaking",
      );
    }
  });

  it("adds the registry operations (non-breaking)", () => {
    const registry = report.operations.filter((o) =>
      /^(GET|POST|PATCH|DELETE) (registered-models|model-versions)\//.test(o.key),
    );
    expect(registry.length).toBeGreaterThanOrEqual(15);
    for (const op of registry) expect(statusOf(op)).toEqual({ status: "added", classification: "non-breaking" });
    expect(registry.map((o) => o.key)).toEqual(
      expect.arrayContaining(["POST registered-models/create", "POST model-versions/transition-stage"]),
    );
  });

  it("says that the tracking prefix moved (breaking), without reporting every operation as removed and added", () => {
    expect(report.prefixMoves).toEqual([expect.objectContaining({ from: "/2.0/preview/tracker", to: "/2.0/tracker" })]);
    const runsGet = operation(report, "GET runs/get");
    expect(runsGet.status).toBe("changed");
    expect(find(runsGet, (c) => c.kind === "path-moved").classification).toBe("breaking");
    expect(
      report.operations
        .filter((o) => o.status === "removed")
        .map((o) => o.key)
        .sort(),
    ).toEqual(["GET metrics/get", "GET params/get"]);
  });
});
