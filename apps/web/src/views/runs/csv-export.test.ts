import type { Run } from "@tracker-ml/client";
import { describe, expect, it } from "vitest";
import { csvColumns, csvFileName, FORMULA_START, runsToCsv } from "./csv-export";

const run = (id: string, name: string, extra: Partial<Run["data"]> = {}): Run => ({
  info: {
    run_id: id,
    run_uuid: id,
    run_name: name,
    experiment_id: "1",
    user_id: "u",
    status: "FINISHED",
    start_time: Date.UTC(2026, 0, 2, 3, 4, 5),
    end_time: Date.UTC(2026, 0, 2, 3, 4, 35),
    artifact_uri: "",
    lifecycle_stage: "active",
  },
  data: { metrics: [], params: [], tags: [{ key: "tracker.user", value: "alice" }], ...extra },
});

describe("runs as CSV", () => {
  it("quotes commas, quotes and newlines, keeps full precision, and names chosen columns by id", async () => {
    const runs = [
      run("a".repeat(32), 'say "hi", then\nleave', {
        metrics: [{ key: "acc", value: 0.123456789, step: 1, timestamp: 0 }],
        params: [{ key: "lr", value: "-0.001" }],
      }),
      run("b".repeat(32), "plain", { params: [{ key: "lr", value: "=HYPERLINK(1)" }] }),
    ];
    const text = await runsToCsv(runs, csvColumns(["metrics.acc", "params.lr", "tags.team"], "tracker"));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "Run ID,Run name,Status,User,Start time,End time,Duration (s),Source,Parent run ID,metrics.acc,params.lr,tags.team",
    );
    expect(text).toContain(`${"a".repeat(32)},"say ""hi"", then\nleave",FINISHED,alice,2026-01-02T03:04:05.000Z,`);
    expect(text).toContain(",30,,,0.123456789,-0.001,");
    // A formula in a param is made inert; a negative number is left as it is.
    expect(text).toContain(`,"'=HYPERLINK(1)",`);
  });

  it("adds an Experiment column when asked, and extra columns last", () => {
    const columns = csvColumns([], "tracker", (id) => `exp ${id}`, [{ header: "Datasets", value: () => "d" }]);
    expect(columns.map((c) => c.header)).toContain("Experiment");
    expect(columns.at(-1)?.header).toBe("Datasets");
    expect(columns.find((c) => c.header === "Experiment")?.value(run("c".repeat(32), "x"))).toBe("exp 1");
  });

  it("treats signed numbers as data and other leading signs as formulas", () => {
    for (const value of ["-1", "+2.5", "-.5", "-1e-3", "+3E+7"]) expect(FORMULA_START.test(value)).toBe(false);
    for (const value of ["=1+1", "@SUM(A1)", "-1+2", "+A1", "\tx", "-cmd"])
      expect(FORMULA_START.test(value)).toBe(true);
  });

  it("names the file after the experiments", () => {
    expect(csvFileName(["fraud detection", "a/b"])).toBe("runs-fraud_detection+a_b.csv");
    expect(csvFileName([])).toBe("runs-runs.csv");
  });
});
