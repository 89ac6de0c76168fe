import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBench } from "./bench.js";
import { writeReport } from "./main.js";
import { CLI as SERVER_CLI } from "@tracker/testing";
import { postgresInstalled } from "./postgres.js";
import { checkTargets, consoleReport } from "./report.js";

// The whole harness in quick mode (tiny dataset, 1 s a side): cluster, seed, server, capture,
// HTTP and raw load, 1 vs 2 workers, report. Needs PostgreSQL's binaries and the built server.
const runnable = postgresInstalled() && fs.existsSync(SERVER_CLI);

describe.skipIf(!runnable)("pnpm bench --quick", () => {
  it("measures every scenario over HTTP and raw SQL and writes the report", async () => {
    const lines: string[] = [];
    const result = await runBench({ quick: true, log: (line) => lines.push(line) });
    expect(result.results.map((r) => r.scenario.name)).toEqual([
      "log-metric",
      "log-batch",
      "LogMetricBatch10",
      "LogParamBatch10",
      "CreateRun",
      "runs/get",
      "experiments/get",
      "metrics/get-history",
      "runs/search",
      "runs/search-1000",
      "experiments/search-1000",
      "experiments/search",
      "model-versions/search",
      "mlflow:log-metric",
      "mlflow:log-batch",
      "mlflow:LogMetricBatch10",
      "mlflow:LogParamBatch10",
      "mlflow:CreateRun",
    ]);
    expect(result.calibration?.summary.requestsPerSecond).toBeGreaterThan(0);
    expect(result.calibrationDb?.summary.requestsPerSecond).toBeGreaterThan(0);
    expect(result.calibrationDb?.cpu.server).toBeGreaterThan(0);
    expect(result.calibrationStack?.summary.requestsPerSecond).toBeGreaterThan(0);
    for (const r of result.results) {
      expect(r.tracker.errors, `${r.scenario.name}: ${r.firstError}`).toBe(0);
      expect(r.raw.errors, `${r.scenario.name}: ${r.firstError}`).toBe(0);
      expect(r.tracker.requestsPerSecond, r.scenario.name).toBeGreaterThan(0);
      // A scenario whose statements cannot be replayed as captured (CreateRun) has no raw side: NaN.
      if (!Number.isNaN(r.raw.requestsPerSecond)) expect(r.raw.requestsPerSecond, r.scenario.name).toBeGreaterThan(0);
      else expect(r.scenario.name).toMatch(/CreateRun$/);
      expect(r.tracker.p99).toBeGreaterThanOrEqual(r.tracker.p50);
      expect(r.rss.peakBytes).toBeGreaterThan(0);
      expect(r.statements.length).toBeGreaterThan(0);
    }
    // The raw side replays what the server issued: one statement, the INSERT of the batch's
    // unnest()ed arrays, no transaction.
    const batch = result.results.find((r) => r.scenario.name === "log-batch")!;
    expect(batch.statements).not.toMatch(/BEGIN/);
    expect(batch.statements).toMatch(/insert into "?metrics"? \(run_uuid/i);
    expect(batch.statements).toMatch(/FROM unnest\(CAST\(\$\d+ AS text\[\]\)/);
    expect(result.explain?.plan).toMatch(/Execution Time/);
    expect(result.scale.find((s) => s.name === "runs/search")?.byWorkers.map((w) => w.workers)).toEqual([1, 2]);

    // The artifact service: a 16 MiB file up and down, and rounds of small parallel uploads.
    expect(result.artifacts?.upload.bytesPerSecond).toBeGreaterThan(0);
    expect(result.artifacts?.download.rss?.peakBytes).toBeGreaterThan(0);
    expect(result.artifacts?.small.rounds).toHaveLength(2);
    // The S3 section, when an S3 server is at hand (CI's throwaway radosgw): every step, small sizes.
    if (process.env.TEST_S3_URL) {
      const s3 = result.s3;
      if (!s3 || "skipped" in s3) throw new Error(`the S3 section did not run: ${s3?.skipped}`);
      expect(s3.upload.tracker.bytesPerSecond).toBeGreaterThan(0);
      expect(s3.download.direct.bytesPerSecond).toBeGreaterThan(0);
      expect(s3.small.tracker).toHaveLength(2);
      expect(s3.listing.direct).toHaveLength(2);
    }

    const checks = checkTargets(result);
    expect(checks.map((c) => c.target).join("\n")).toMatch(/log-batch ingest/);
    expect(checks.map((c) => c.target).join("\n")).toMatch(/artifact upload of 16 MiB/);
    expect(checks.map((c) => c.target).join("\n")).toMatch(/calibration/);
    if (process.env.TEST_S3_URL) expect(checks.map((c) => c.target).join("\n")).toMatch(/S3 upload of 16 MiB/);
    expect(consoleReport(result)).toMatch(/runs\/search/);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-bench-report-"));
    try {
      const files = writeReport(result, out, "pnpm bench --quick");
      const markdown = fs.readFileSync(files[0], "utf8");
      expect(markdown).toMatch(/Load average at start/);
      expect(markdown).toMatch(/\| runs\/search \|/);
      expect(markdown).toMatch(/## Artifact service/);
      expect(markdown).toMatch(/Database calibration \(the floor of a write\)/);
      expect(markdown).toMatch(/\| server \/ bare route \+ pg INSERT \|/);
      if (process.env.TEST_S3_URL) expect(markdown).toMatch(/## S3 artifact store/);
      expect(fs.readFileSync(path.join(out, "benchmarks", "explain-runs-search.txt"), "utf8")).toMatch(
        /Execution Time/,
      );
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 240_000); // (the S3 section adds about 20 s on a busy machine)
});
