import type { BenchResult, ScaleResult } from "./bench.js";
import { rate, ratio } from "./format.js";
import type { TargetCheck } from "./report.js";
import { CALIBRATION, MLFLOW_PREFIX, WRITES } from "./scenarios.js";
import { TARGETS } from "./settings.js";

/**
 * Server CPU per request (issue 33): CPU time (user + system) of the server's processes over the
 * measured window, divided by the requests completed in it. Unlike req/s it does not depend on how
 * many cores the server, PostgreSQL and the load generator share.
 */

/** Microseconds of CPU per request from a CPU share (percent of one core) and a request rate. */
export const micros = (cpuPercent: number, requestsPerSecond: number): number =>
  requestsPerSecond > 0 ? (cpuPercent * 1e4) / requestsPerSecond : NaN;

const us = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "-");

const isWrite = (name: string) => WRITES.has(name.startsWith(MLFLOW_PREFIX) ? name.slice(MLFLOW_PREFIX.length) : name);

/** Server CPU µs per request of a calibration scenario (NaN when it was not measured). */
function calibrationMicros(c: BenchResult["calibration"]): number {
  return c ? micros(c.cpu.server, c.summary.requestsPerSecond) : NaN;
}

function baselineOf(result: BenchResult, name: string) {
  return result.baseline?.results.find((b) => b.name === name);
}

export function cpuPerRequestTargets(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const bare = calibrationMicros(result.calibration);
  const withDb = calibrationMicros(result.calibrationDb);
  const stack = calibrationMicros(result.calibrationStack);
  const find = (name: string) => result.results.find((r) => r.scenario.name === name);
  for (const name of TARGETS.cpuOfCalibration.scenarios) {
    const r = find(name);
    if (!r || !Number.isFinite(bare)) continue;
    const mine = micros(r.cpu.server, r.tracker.requestsPerSecond);
    checks.push({
      target: `${name}: server CPU per request <= ${TARGETS.cpuOfCalibration.ratio}x the bare Express route's`,
      measured:
        `${us(mine)} vs ${us(bare)} µs = ${ratio(mine / bare)}` +
        (Number.isFinite(withDb)
          ? ` (the bare route + one pg INSERT: ${us(withDb)} µs, ${ratio(withDb / bare)} the bare route's; this scenario ${ratio(mine / withDb)} of it)`
          : "") +
        (Number.isFinite(stack)
          ? ` (the same through express-openapi-validator: ${us(stack)} µs, ${ratio(stack / bare)} the bare route's; this scenario ${ratio(mine / stack)} of it)`
          : ""),
      met: mine <= TARGETS.cpuOfCalibration.ratio * bare,
    });
  }
  for (const r of result.results) {
    const b = baselineOf(result, r.scenario.name);
    if (!b) continue;
    const mine = micros(r.cpu.server, r.tracker.requestsPerSecond);
    const before = micros(b.cpu.server, b.summary.requestsPerSecond);
    if (isWrite(r.scenario.name))
      checks.push({
        target: `${r.scenario.name}: server CPU per request <= ${TARGETS.writeCpuOfBaseline}x the baseline build's`,
        measured: `${us(mine)} vs ${us(before)} µs = ${ratio(mine / before)}`,
        met: mine <= TARGETS.writeCpuOfBaseline * before,
      });
    checks.push({
      target: `${r.scenario.name}: req/s no lower than the baseline build's (${TARGETS.rateOfBaseline}x allowed for noise)`,
      measured: `${rate(r.tracker.requestsPerSecond)} vs ${rate(b.summary.requestsPerSecond)} req/s = ${ratio(r.tracker.requestsPerSecond / b.summary.requestsPerSecond)}`,
      met: r.tracker.requestsPerSecond >= TARGETS.rateOfBaseline * b.summary.requestsPerSecond,
    });
  }
  for (const name of TARGETS.cpuBelowPostgres) {
    const r = find(name);
    if (!r) continue;
    const server = micros(r.cpu.server, r.tracker.requestsPerSecond);
    const postgres = micros(r.cpu.postgres, r.tracker.requestsPerSecond);
    checks.push({
      target: `${name}: server CPU per request <= PostgreSQL's for the same request`,
      measured: `${us(server)} vs ${us(postgres)} µs = ${ratio(server / postgres)}`,
      met: server <= postgres,
    });
  }
  // The bare route's own ratio at each worker count (the scale section measures it first): what
  // node:cluster and one more process cost on this machine without tracker's code, stated beside
  // each scenario's (not a target itself).
  const workersRatio = (s: ScaleResult, workers: number): number | undefined => {
    const one = s.byWorkers.find((w) => w.workers === 1);
    const many = s.byWorkers.find((w) => w.workers === workers);
    if (!one || !many) return undefined;
    return (
      micros(many.cpu.server, many.summary.requestsPerSecond) / micros(one.cpu.server, one.summary.requestsPerSecond)
    );
  };
  const bareScale = result.scale.find((s) => s.name === CALIBRATION.name);
  for (const s of result.scale) {
    if (s === bareScale) continue;
    const one = s.byWorkers.find((w) => w.workers === 1);
    if (!one) continue;
    const base = micros(one.cpu.server, one.summary.requestsPerSecond);
    for (const w of s.byWorkers.filter((x) => x.workers > 1)) {
      const mine = micros(w.cpu.server, w.summary.requestsPerSecond);
      const bareRatio = bareScale && workersRatio(bareScale, w.workers);
      checks.push({
        target: `${s.name}: server CPU per request with ${w.workers} workers <= ${TARGETS.workersCpuRatio}x 1 worker's`,
        measured: `${us(mine)} vs ${us(base)} µs = ${ratio(mine / base)}${bareRatio === undefined ? "" : ` (bare route: ${ratio(bareRatio)})`}`,
        met: mine <= TARGETS.workersCpuRatio * base,
      });
    }
  }
  return checks;
}

/** The section "Server CPU per request" of docs/benchmarks.md. */
export function cpuPerRequestMarkdown(result: BenchResult): string[] {
  const bare = calibrationMicros(result.calibration);
  const withDb = calibrationMicros(result.calibrationDb);
  const stack = calibrationMicros(result.calibrationStack);
  const withBaseline = result.baseline !== undefined;
  const header = [
    "scenario",
    "req/s",
    "server CPU µs/req",
    "PostgreSQL CPU µs/req",
    "server / bare route",
    "server / bare route + pg INSERT",
    "server / validated route + pg INSERT",
    ...(withBaseline ? ["baseline req/s", "baseline server CPU µs/req", "server CPU vs baseline"] : []),
  ];
  const rows = result.results.map((r) => {
    const mine = micros(r.cpu.server, r.tracker.requestsPerSecond);
    const b = baselineOf(result, r.scenario.name);
    const before = b ? micros(b.cpu.server, b.summary.requestsPerSecond) : NaN;
    return [
      r.scenario.name,
      rate(r.tracker.requestsPerSecond),
      us(mine),
      us(micros(r.cpu.postgres, r.tracker.requestsPerSecond)),
      ratio(mine / bare),
      ratio(mine / withDb),
      ratio(mine / stack),
      ...(withBaseline ? [b ? rate(b.summary.requestsPerSecond) : "-", us(before), ratio(mine / before)] : []),
    ];
  });
  const lines = [
    "## Server CPU per request",
    "",
    "CPU time (user + system) of the server's process over the measured HTTP run, divided by the requests it completed;",
    "PostgreSQL's likewise (its whole cluster). Unlike req/s, this does not depend on how many cores the server, PostgreSQL",
    `and the load generator share. The bare Express route (calibration) cost ${us(bare)} µs of server CPU a request in this run;`,
    `the same with a JSON body read by express.json() and one named prepared INSERT through pg (calibration-db, the floor of`,
    `a write with Express and pg) cost ${us(withDb)} µs; the same checked first by express-openapi-validator against revision`,
    `C's document on runs/log-metric (calibration-stack, the floor of a write with the libraries tracker is built on) ${us(stack)} µs.`,
    "Scenarios named `mlflow:` send the same requests to MLflow's paths (`/api/2.0/mlflow/...`).",
  ];
  if (result.baseline)
    lines.push(
      `Baseline: the same scenarios over HTTP on another build, \`${result.baseline.cli}\`, one worker, measured in the same run`,
      result.baseline.order === "interleaved"
        ? "beside this build's, scenario by scenario, the order reversed every other scenario (`--baseline`)."
        : "after this build's (`--baseline --baseline-after`).",
    );
  lines.push("", `| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  lines.push("");
  return lines;
}
