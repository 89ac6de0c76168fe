import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { startCalibrationServer } from "./calibration.js";
import { micros } from "./cpu-per-request.js";
import { describe, withStatementLog, type CapturedRequest } from "./capture.js";
import { httpLoad, rawLoad, summarize, type HttpRequest, type Summary } from "./load.js";
import { machineInfo, type MachineInfo } from "./machine.js";
import { CALIBRATION_DB_SERVER, CALIBRATION_SERVER, REV_C_DOCUMENT, STARTUP_BENCH } from "./paths.js";
import { startCluster, type Cluster } from "./postgres.js";
import {
  CALIBRATION,
  CALIBRATION_DB,
  CALIBRATION_STACK,
  CAPTURE_N,
  scenarios as defineScenarios,
  type Scenario,
} from "./scenarios.js";
import { seed } from "./seed.js";
import { runArtifactBench, type ArtifactBenchResult } from "./artifacts.js";
import { runS3Bench, type S3BenchResult, type S3BenchSkipped } from "./s3-artifacts.js";
import { runEmbeddedPass, type EmbeddedResult } from "./embedded.js";
import {
  measureCpu,
  runCli,
  sampleRss,
  startServer,
  type CpuReport,
  type RssReport,
  type ServerProcess,
} from "./server-process.js";
import { FULL, FULL_LOAD, QUICK, QUICK_LOAD, type BaselineOrder, type Load, type Sizes } from "./settings.js";

const execFileAsync = promisify(execFile);

// pg returns int8 as strings; the server parses them as numbers, so the raw side does too.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export interface BenchOptions {
  quick: boolean;
  /** Only the scenarios whose names contain one of these strings. */
  only?: string[];
  /** Overrides of the load settings (seconds per side, start-up runs, worker counts). */
  load?: Partial<Load>;
  /** Another build's CLI (dist/cli.js): the same scenarios over HTTP on it too, in the same run, to compare. */
  baselineCli?: string;
  /**
   * When the baseline is measured: per scenario, alternating with this build (`interleaved`, the
   * default: this build first on even scenarios, the baseline first on odd ones), or after all of
   * this build's scenarios (`after`, as before).
   */
  baselineOrder?: BaselineOrder;
  log?: (line: string) => void;
}

export interface ScenarioResult {
  scenario: Pick<Scenario, "name" | "description" | "connections" | "rowsPerRequest">;
  tracker: Summary;
  raw: Summary;
  rss: RssReport;
  /** 1-minute load average of the machine when the scenario's measured HTTP run started. */
  loadAverage: number;
  /** CPU during the HTTP run (tracker) and the raw run, in percent of one core. */
  cpu: CpuReport;
  rawCpu: CpuReport;
  statements: string;
  firstError?: string;
}

/** One scenario over HTTP on the baseline build (`--baseline`). */
export interface BaselineResult {
  name: string;
  summary: Summary;
  cpu: CpuReport;
  loadAverage: number;
}

export interface ScaleResult {
  name: string;
  connections: number;
  byWorkers: Array<{ workers: number; summary: Summary; rss: RssReport; cpu: CpuReport; loadAverage: number }>;
}

interface StartupFigures {
  median: number;
  min: number;
  max: number;
}

/** apps/server/scripts/startup-bench.mjs's report: per embedded engine, milliseconds. */
export interface StartupResult {
  runs: number;
  engines: Record<
    string,
    { fresh: StartupFigures; existing: StartupFigures; targets: { fresh: number; existing: number } }
  >;
}

export interface BenchResult {
  quick: boolean;
  sizes: Sizes;
  load: Load;
  machine: MachineInfo;
  postgresVersion: string;
  startedAt: Date;
  finishedAt: Date;
  loadAverageEnd: number[];
  seedSeconds: number;
  results: ScenarioResult[];
  scale: ScaleResult[];
  explain?: { sql: string; params: Array<string | null>; plan: string };
  startup?: StartupResult;
  artifacts?: ArtifactBenchResult;
  /** The artifact service on S3 against the AWS SDK on the same server (or why it was skipped). */
  s3?: S3BenchResult | S3BenchSkipped;
  /** The same scenarios on the embedded default. */
  embedded?: EmbeddedResult;
  /** The same scenarios over HTTP on another build (`--baseline`), per scenario beside this build's or after them all. */
  baseline?: { cli: string; order: BaselineOrder; results: BaselineResult[] };
  /** The calibration scenario (a bare Express 5 route), measured before the scenarios. */
  calibration?: CalibrationResult;
  /** The database calibration scenario (a bare Express 5 route with one pg INSERT), after the bare route. */
  calibrationDb?: CalibrationResult;
  /** The stack calibration scenario (the same with express-openapi-validator on revision C's document), after it. */
  calibrationStack?: CalibrationResult;
}

/** One calibration scenario's measured run (its own server process). */
export interface CalibrationResult {
  summary: Summary;
  cpu: CpuReport;
  loadAverage: number;
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const sizes = options.quick ? QUICK : FULL;
  const load: Load = { ...(options.quick ? QUICK_LOAD : FULL_LOAD), ...options.load };
  const startedAt = new Date();
  const machine = await machineInfo();
  log(
    `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB, load average ${machine.loadAverage.map((x) => x.toFixed(2)).join(" ")}`,
  );

  const cluster = await startCluster();
  log(`PostgreSQL ${cluster.version} at ${cluster.url.replace(/\/\/[^@]*@/, "//")}`);
  const servers: Array<{ stop(): Promise<void> }> = [];
  try {
    await runCli(["db", "migrate", "--backend-store-uri", cluster.url], { DATABASE_URL: "" });
    log("seeding (direct SQL):");
    const seedStarted = performance.now();
    const pick = (name: string) => !options.only?.length || options.only.some((o) => name.includes(o));
    const data = await seed(cluster.url, sizes, log, { searchRuns: pick("runs/search") });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const chosen = defineScenarios(data, sizes).filter((s) => pick(s.name));

    const calibration = await measureCalibration(
      { ...CALIBRATION, script: CALIBRATION_SERVER, args: [], request: () => ({ method: "GET", path: "/ping" }) },
      cluster.postmasterPid,
      load,
      log,
    );
    const calibrationDb = await measureCalibration(
      { ...CALIBRATION_DB, script: CALIBRATION_DB_SERVER, args: [cluster.url] },
      cluster.postmasterPid,
      load,
      log,
    );
    const calibrationStack = await measureCalibration(
      { ...CALIBRATION_STACK, script: CALIBRATION_DB_SERVER, args: [cluster.url, REV_C_DOCUMENT] },
      cluster.postmasterPid,
      load,
      log,
    );

    let server = await startServer(cluster.url, 1);
    servers.push(server);
    log(`tracker server (1 worker) at ${server.url}`);
    const baselineOrder = options.baselineOrder ?? "interleaved";
    // Interleaved: the baseline server runs beside this build's, and each scenario is measured on
    // both, one after the other (the order reversed every other scenario), so that both sides
    // meet alike load on a shared machine.
    let interleaved: ServerProcess | undefined;
    const baselineResults: BaselineResult[] = [];
    if (options.baselineCli && baselineOrder === "interleaved") {
      interleaved = await startServer(cluster.url, 1, [], {}, options.baselineCli);
      servers.push(interleaved);
      log(`baseline: ${options.baselineCli} (1 worker) at ${interleaved.url}, measured per scenario beside this build`);
    }
    const measureBaseline = async (on: ServerProcess, s: Scenario) => {
      const m = await measureHttp(on, cluster.postmasterPid, s, load, 6_000_000);
      log(
        `  baseline: ${fmtSummary(m.summary)} (load average ${m.loadAverage.toFixed(2)}); ${fmtCpu(m.cpu)}; ${fmtMicros(m.cpu, m.summary)}`,
      );
      baselineResults.push({ name: s.name, ...m });
    };

    const results: ScenarioResult[] = [];
    const captured = new Map<string, CapturedRequest>();
    for (const [i, s] of chosen.entries()) {
      log(`\n${s.name}: ${s.description}; ${s.connections} connections`);
      const baselineFirst = interleaved !== undefined && i % 2 === 1;
      if (interleaved && baselineFirst) await measureBaseline(interleaved, s);
      await httpLoad(server.url, s.connections, load.warmupSeconds, (n) => s.request(n + 1_000_000));
      // After the warm-up (the server's pool is as it is under load), one request with
      // PostgreSQL logging the server's statements: the raw side replays them.
      const request = await captureRequest(cluster, server.url, s);
      captured.set(s.name, request);
      log(
        `  server SQL per request: ${request.sessions.map((x) => x.length).reduce((a, b) => a + b, 0)} statements on ${request.sessions.length} connection(s)`,
      );
      const loadAverage = os.loadavg()[0];
      const sampler = sampleRss(server.pids());
      const cpuMeter = measureCpu(server.pids, cluster.postmasterPid);
      const http = await httpLoad(server.url, s.connections, load.seconds, (n) => s.request(n));
      const cpu = cpuMeter.stop();
      const rss = sampler.stop();
      const tracker = summarize(http);
      log(
        `  tracker: ${fmtSummary(tracker)} (load average ${loadAverage.toFixed(2)}); RSS ${mib(rss.startBytes)} -> peak ${mib(rss.peakBytes)}; ${fmtCpu(cpu)}; ${fmtMicros(cpu, tracker)}`,
      );
      if (interleaved && !baselineFirst) await measureBaseline(interleaved, s);

      const scenario = {
        name: s.name,
        description: s.description,
        connections: s.connections,
        rowsPerRequest: s.rowsPerRequest,
      };
      if (s.noRaw) {
        const none: Summary = { requestsPerSecond: NaN, p50: NaN, p99: NaN, errors: 0 };
        const rawCpu: CpuReport = { server: NaN, postgres: NaN, bench: NaN };
        const statements = describe(request);
        results.push({
          scenario,
          tracker,
          raw: none,
          rss,
          loadAverage,
          cpu,
          rawCpu,
          statements,
          firstError: http.firstError,
        });
        if (http.firstError) log(`  first HTTP error: ${http.firstError}`);
        continue;
      }
      const pool = new pg.Pool({ connectionString: cluster.url, max: s.connections * request.sessions.length });
      try {
        await rawLoad(
          pool,
          s.connections,
          load.warmupSeconds,
          request,
          (n) => s.substitutions(n + 1_000_000),
          s.stringify,
        );
        const rawCpuMeter = measureCpu(() => [], cluster.postmasterPid);
        const rawResult = await rawLoad(pool, s.connections, load.seconds, request, s.substitutions, s.stringify);
        const rawCpu = rawCpuMeter.stop();
        const raw = summarize(rawResult);
        log(`  raw:     ${fmtSummary(raw)}; ${fmtCpu(rawCpu)}`);
        results.push({
          scenario,
          tracker,
          raw,
          rss,
          loadAverage,
          cpu,
          rawCpu,
          statements: describe(request),
          firstError: http.firstError ?? rawResult.firstError,
        });
        if (http.firstError) log(`  first HTTP error: ${http.firstError}`);
        if (rawResult.firstError) log(`  first raw error: ${rawResult.firstError}`);
      } finally {
        await pool.end();
      }
    }

    // EXPLAIN ANALYZE of the search statement the server issued.
    let explain: BenchResult["explain"];
    const search = captured.get("runs/search");
    if (search) {
      const statement = search.sessions.flat().find((st) => /from "runs"/i.test(st.sql) && /order by/i.test(st.sql));
      if (statement) {
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        try {
          const res = await client.query({
            text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
            values: statement.params ?? [],
          });
          explain = {
            sql: statement.sql,
            params: statement.params ?? [],
            plan: res.rows.map((r) => r["QUERY PLAN"]).join("\n"),
          };
        } finally {
          await client.end();
        }
      }
    }

    for (const stopped of interleaved ? [server, interleaved] : [server]) {
      await stopped.stop();
      servers.splice(servers.indexOf(stopped), 1);
    }

    if (options.baselineCli && baselineOrder === "after") {
      server = await startServer(cluster.url, 1, [], {}, options.baselineCli);
      servers.push(server);
      log(`\nbaseline: ${options.baselineCli} (1 worker) at ${server.url}`);
      for (const s of chosen) {
        log(`${s.name}:`);
        await measureBaseline(server, s);
      }
      await server.stop();
      servers.pop();
    }
    const baseline: BenchResult["baseline"] = options.baselineCli
      ? { cli: options.baselineCli, order: baselineOrder, results: baselineResults }
      : undefined;

    // Horizontal scale: the same HTTP load on 1 and N worker processes over one database, every worker
    // count measured in this phase, one after the other per scenario (their order alternating), so
    // that the machine's load is alike for all (issue 33: the 1-worker figure used to be the pass
    // above, minutes earlier).
    const scale = await measureScale(
      chosen.filter((s) => s.scale),
      [...new Set([1, ...load.workerCounts])].sort((a, b) => a - b),
      cluster,
      load,
      servers,
      log,
    );

    const embedded = load.embedded ? await runEmbeddedPass(sizes, load, pick, log) : undefined;

    let startup: StartupResult | undefined;
    if (load.startupRuns > 0) {
      log(
        `\nstart-up (embedded PostgreSQL and PGlite, ${load.startupRuns} runs each): ${path.relative(process.cwd(), STARTUP_BENCH)}`,
      );
      const jsonFile = path.join(os.tmpdir(), `tracker-startup-${process.pid}.json`);
      const { stdout } = await execFileAsync(process.execPath, [STARTUP_BENCH, String(load.startupRuns)], {
        env: { ...process.env, BENCH_JSON: jsonFile },
      });
      log(stdout.trimEnd().replace(/^/gm, "  "));
      startup = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as StartupResult;
      fs.rmSync(jsonFile, { force: true });
    }

    let artifacts: ArtifactBenchResult | undefined;
    if (pick("artifacts")) {
      log("");
      artifacts = await runArtifactBench({ quick: options.quick, log });
    }
    let s3: BenchResult["s3"];
    if (pick("s3-artifacts")) {
      log("");
      s3 = await runS3Bench({ quick: options.quick, log });
    }

    return {
      artifacts,
      s3,
      quick: options.quick,
      sizes,
      load,
      machine,
      postgresVersion: cluster.version,
      startedAt,
      finishedAt: new Date(),
      loadAverageEnd: os.loadavg(),
      seedSeconds,
      results,
      scale,
      explain,
      startup,
      calibration,
      calibrationDb,
      calibrationStack,
      embedded,
      baseline,
    };
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    await cluster.stop();
  }
}

/**
 * The horizontal-scale section: a server per worker count, all started first, then per scenario each
 * worker count in turn (the order reversed every other scenario). The warm-up lasts the bench's
 * warm-up times the worker count: node:cluster shares the connections out, and each worker compiles
 * its own code (V8's optimising compiler runs on the process's threads, so its CPU counts as the
 * server's), so every worker gets as many warm-up requests as a single worker does.
 */
async function measureScale(
  chosen: Scenario[],
  workerCounts: number[],
  cluster: Cluster,
  load: Load,
  servers: Array<{ stop(): Promise<void> }>,
  log: (line: string) => void,
): Promise<ScaleResult[]> {
  if (chosen.length === 0 || workerCounts.length < 2) return [];
  const byCount = new Map<number, ServerProcess>();
  const bareByCount = new Map<number, Pick<ServerProcess, "url" | "pids" | "stop">>();
  try {
    for (const workers of workerCounts) {
      const server = await startServer(cluster.url, workers);
      servers.push(server);
      byCount.set(workers, server);
      const bare = await startCalibrationServer(CALIBRATION_SERVER, [], { CALIBRATION_WORKERS: String(workers) });
      servers.push(bare);
      bareByCount.set(workers, bare);
    }
    log(`
horizontal scale: ${workerCounts.join(", ")} worker(s), measured in turn per scenario; first the bare route (calibration) under node:cluster`);
    const results: ScaleResult[] = [];
    // The bare route first: what 1 and N processes cost on this machine without any of tracker's code.
    for (const [i, s] of [CALIBRATION_SCENARIO, ...chosen].entries()) {
      const entry: ScaleResult = { name: s.name, connections: s.connections, byWorkers: [] };
      const serverOf = s === CALIBRATION_SCENARIO ? bareByCount : byCount;
      for (const workers of i % 2 === 0 ? workerCounts : [...workerCounts].reverse()) {
        // Requests of their own (writes carry distinct data): 10,000,000 apart per worker count.
        const m = await measureHttp(serverOf.get(workers)!, cluster.postmasterPid, s, load, 10_000_000 * workers, {
          warmupSeconds: load.warmupSeconds * workers,
        });
        const primary = m.cpu.primary === undefined ? "" : ` (primary ${m.cpu.primary.toFixed(1)}%)`;
        const perRequest = (x: number) => (x / m.summary.requestsPerSecond).toFixed(2);
        const { serverSystem = 0, serverSwitches: switches = { voluntary: 0, involuntary: 0 } } = m.cpu;
        const detail = `; of the server's CPU ${((100 * serverSystem) / m.cpu.server).toFixed(0)}% system; context switches per request ${perRequest(switches.voluntary)} voluntary, ${perRequest(switches.involuntary)} involuntary`;
        log(
          `  ${s.name}, ${workers} worker(s): ${fmtSummary(m.summary)} (load average ${m.loadAverage.toFixed(2)}); ${fmtCpu(m.cpu)}${primary}; ${fmtMicros(m.cpu, m.summary)}${detail}`,
        );
        entry.byWorkers.push({ workers, ...m });
      }
      entry.byWorkers.sort((a, b) => a.workers - b.workers);
      results.push(entry);
    }
    return results;
  } finally {
    for (const server of [...byCount.values(), ...bareByCount.values()]) {
      await server.stop();
      servers.splice(servers.indexOf(server), 1);
    }
  }
}

/**
 * One scenario over HTTP alone: a warm-up from request `offset`, then the measured run from
 * `offset + 1_000_000`, with the CPU of the server and PostgreSQL and the server's RSS.
 */
async function measureHttp(
  server: Pick<ServerProcess, "url" | "pids">,
  postmasterPid: number,
  s: Pick<Scenario, "connections" | "request">,
  load: Load,
  offset: number,
  { warmupSeconds = load.warmupSeconds }: { warmupSeconds?: number } = {},
): Promise<{ summary: Summary; cpu: CpuReport; rss: RssReport; loadAverage: number }> {
  await httpLoad(server.url, s.connections, warmupSeconds, (n) => s.request(n + offset));
  const loadAverage = os.loadavg()[0];
  const sampler = sampleRss(server.pids());
  const cpuMeter = measureCpu(server.pids, postmasterPid);
  const summary = summarize(
    await httpLoad(server.url, s.connections, load.seconds, (n) => s.request(n + offset + 1_000_000)),
  );
  const cpu = cpuMeter.stop();
  const rss = sampler.stop();
  return { summary, cpu, rss, loadAverage };
}

/** The bare route as a scenario of the horizontal-scale section (it has no raw side). */
const CALIBRATION_SCENARIO: Pick<Scenario, "name" | "connections" | "request"> = {
  name: CALIBRATION.name,
  connections: CALIBRATION.connections,
  request: () => ({ method: "GET", path: "/ping" }),
};

/** A calibration scenario: its server script (started with `args`) and the n-th request it is sent. */
interface Calibration {
  name: string;
  description: string;
  connections: number;
  script: string;
  args: string[];
  request: (n: number) => HttpRequest;
}

/** A calibration scenario: its server script in its own process, the same load as the scenarios. */
async function measureCalibration(
  calibration: Calibration,
  postmasterPid: number,
  load: Load,
  log: (line: string) => void,
): Promise<CalibrationResult> {
  const { name, description, connections, request } = calibration;
  const server = await startCalibrationServer(calibration.script, calibration.args);
  try {
    log(`\n${name}: ${description}; ${connections} connections`);
    await httpLoad(server.url, connections, load.warmupSeconds, (n) => request(n + 1_000_000));
    const loadAverage = os.loadavg()[0];
    const cpuMeter = measureCpu(() => [server.pid], postmasterPid);
    const result = await httpLoad(server.url, connections, load.seconds, (n) => request(n + 2_000_000));
    const cpu = cpuMeter.stop();
    if (result.errors) throw new Error(`${name}: ${result.errors} errors, e.g. ${result.firstError}`);
    const summary = summarize(result);
    log(
      `  express: ${fmtSummary(summary)} (load average ${loadAverage.toFixed(2)}); ${fmtCpu(cpu)}; ${fmtMicros(cpu, summary)}`,
    );
    return { summary, cpu, loadAverage };
  } finally {
    await server.stop();
  }
}

async function captureRequest(cluster: Cluster, url: string, s: Scenario): Promise<CapturedRequest> {
  const req = s.request(CAPTURE_N);
  return withStatementLog(cluster.url, cluster.logFile, async () => {
    const res = await fetch(url + req.path, {
      method: req.method,
      body: req.body,
      headers: req.body ? { "content-type": "application/json" } : {},
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${s.name}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  });
}

const fmtCpu = (c: CpuReport) =>
  `CPU server ${c.server.toFixed(0)}%, postgres ${c.postgres.toFixed(0)}%, bench ${c.bench.toFixed(0)}%`;
const fmtMicros = (c: CpuReport, s: Summary) =>
  `per request: server ${micros(c.server, s.requestsPerSecond).toFixed(0)} µs, postgres ${micros(c.postgres, s.requestsPerSecond).toFixed(0)} µs`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const fmtSummary = (s: Summary) =>
  `${s.requestsPerSecond.toFixed(1)} req/s, p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms${s.errors ? `, ${s.errors} errors` : ""}`;
