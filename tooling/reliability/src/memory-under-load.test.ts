import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  backendStore,
  call,
  childProcesses,
  startServerProcess,
  testDatabases,
  type ServerDatabase,
  type ServerProcess,
} from "@tracker/testing";
import { loadConfig } from "@tracker/server";

/**
 * Bounded memory under 2,000 concurrent log-metric clients (issue 28, item 7). Without a bound every
 * request waits inside the server (its body parsed, its query queued for the pool): the issue saw
 * the process grow by 183 MiB on the embedded database and 53 MiB on PostgreSQL.
 *
 * The bound on the server process's growth (docs/deploy.md, "Memory under load"), derived from the
 * in-flight limit:
 *
 *   growth <= NEW_SPACE + (1 + heap growth) x (inFlight x PER_REQUEST + clients x PER_CONNECTION)
 *
 * - inFlight: `--max-in-flight-requests` (256 by default; http/in-flight-limit.ts). It is checked
 *   before authentication and before the body is read: a request beyond it is answered 503 with
 *   `Retry-After: 1` at once, its body unread, so a waiting client costs the server its socket only.
 * - PER_REQUEST: what one log-metric request holds in flight (its request and response objects,
 *   Express's and the validator's state, the parsed body, its query and its place in the pool's
 *   queue): allowed 64 KiB, several times a log-metric request's objects and its ~150-byte body.
 * - PER_CONNECTION: an open keep-alive socket between requests (its socket, HTTP parser and
 *   buffers): allowed 16 KiB. Open sockets are bounded by the process's file-descriptor limit, not
 *   by the in-flight bound. (Neither unit cost is measured on its own here: the test checks their sum.)
 * - heap growth: `--heap-growth-percent` (100 by default): V8 lets the old generation reach twice
 *   what survived the last full collection before it collects again.
 * - NEW_SPACE: V8's young generation at its largest (two semi-spaces of 16 MiB on 64-bit), which
 *   any busy Node process fills.
 *
 * The allowance is worked out for the server's default bound, whatever TRACKER_MAX_IN_FLIGHT_REQUESTS
 * the run gives the server: with `TRACKER_MAX_IN_FLIGHT_REQUESTS=0` (no bound) the test shows what
 * the bound saves.
 *
 * Measured on the embedded default (PostgreSQL from the bundled binaries, separate processes: the
 * postmaster and its children, whose PSS is printed, not bounded here: they are the pool's
 * connections, their number fixed) and on PostgreSQL (TEST_DATABASE_URL: a shared server, not
 * measured). PGlite runs inside the server process (its memory counts in the server's RSS); it is
 * measured with MEASURE_MEMORY=1. LOAD_CLIENTS and LOAD_SECONDS (default 10) change the load. The
 * measurement ends on time (requests still open then are cut): a slow machine serves fewer
 * requests in it rather than making the test longer.
 * Connections the machine could not open (ECONNRESET, ETIMEDOUT when the listen backlog overflows
 * on a saturated machine) are counted and printed, not failed on: what is tested is the server's
 * memory and its answers.
 */

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 2000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
/** The bound the server runs with: its default unless the run says otherwise (0: no bound). */
const RUN_BOUND = process.env.TRACKER_MAX_IN_FLIGHT_REQUESTS;
const RAMP_MS = 2000;
const KIB = 1024;
const MIB = 1024 * KIB;

/** The allowance's terms (see the comment above). */
const NEW_SPACE = 32 * MIB;
const PER_REQUEST = 64 * KIB;
const PER_CONNECTION = 16 * KIB;

/** The growth the server's default configuration may show under `clients` clients. */
function memoryAllowance(clients: number): { bytes: number; formula: string } {
  const defaults = loadConfig({}, {});
  const inFlight = Math.min(defaults.maxInFlightRequests, clients);
  const factor = 1 + defaults.heapGrowthPercent / 100;
  const bytes = NEW_SPACE + factor * (inFlight * PER_REQUEST + clients * PER_CONNECTION);
  const formula = `${NEW_SPACE / MIB} MiB + ${factor} x (${inFlight} x ${PER_REQUEST / KIB} KiB + ${clients} x ${PER_CONNECTION / KIB} KiB) = ${(bytes / MIB).toFixed(0)} MiB`;
  return { bytes, formula };
}

/** A field of /proc/<pid>/status or smaps_rollup (Linux), in bytes; 0 once the process is gone. */
function procField(pid: number, file: "status" | "smaps_rollup", field: string): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * KIB;
  } catch {
    return 0;
  }
}

/** The server process's resident memory. */
const rssOf = (pid: number) => procField(pid, "status", "VmRSS");

/**
 * The embedded PostgreSQL's processes: the postmaster (from its data dir's postmaster.pid) and its
 * children (the pool's backends and PostgreSQL's auxiliary processes).
 */
function databaseProcesses(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  return [postmaster, ...childProcesses(postmaster)];
}

/**
 * Their memory: the sum of each process's PSS (proportional set size), which counts the shared
 * buffers once across processes, where a sum of RSS would count them in every backend.
 */
const pssOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + procField(pid, "smaps_rollup", "Pss"), 0);

interface Tally {
  ok: number;
  busy: number;
  /** Clients that had at least one answer (200 or 503). */
  served: Set<number>;
  /** Connections that failed before an answer, by error code. */
  unconnected: Map<string, number>;
  /** Answers other than 200 and 503, by status. */
  other: Map<string, number>;
}

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** One client: log-metric after log-metric on its own key until `until`, waiting Retry-After on a 503. */
async function client(agent: http.Agent, port: number, runId: string, index: number, until: number, tally: Tally) {
  // The clients arrive over RAMP_MS, as a fleet of training jobs does, not in one SYN flood that
  // overflows the listen backlog (connections reset before the server sees them).
  await new Promise((r) => setTimeout(r, (index * RAMP_MS) / CLIENTS));
  let step = 0;
  while (Date.now() < until) {
    const body = JSON.stringify({ run_id: runId, key: `client_${index}`, value: step, timestamp: Date.now(), step });
    step++;
    const answer = await new Promise<{ status: number; detail?: string }>((resolve) => {
      const req = http.request(
        {
          agent,
          port,
          host: "127.0.0.1",
          method: "POST",
          path: "/api/2.0/mlflow/runs/log-metric",
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, detail: res.headers["retry-after"] }));
        },
      );
      req.on("error", (err: NodeJS.ErrnoException) => resolve({ status: 0, detail: err.code }));
      req.end(body);
    });
    // Requests still open at the end are cut (the agent is destroyed then): not a failure.
    if (answer.status === 0 && Date.now() >= until) break;
    if (answer.status === 200 || answer.status === 503) tally.served.add(index);
    if (answer.status === 200) tally.ok++;
    else if (answer.status === 503) {
      tally.busy++;
      await new Promise((r) => setTimeout(r, Number(answer.detail ?? 1) * 1000));
    } else {
      count(
        answer.status === 0 ? tally.unconnected : tally.other,
        answer.status === 0 ? String(answer.detail) : String(answer.status),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The embedded default and PostgreSQL always; PGlite (inside the server process) with MEASURE_MEMORY=1. */
const databases: ServerDatabase[] = [
  "embedded-postgres",
  ...testDatabases().filter((kind) => kind === "postgres" || process.env.MEASURE_MEMORY === "1"),
];

describe.each(databases)("memory under %s with 2,000 concurrent log-metric clients", (kind) => {
  let server: ServerProcess | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    server?.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  const allowance = memoryAllowance(CLIENTS);
  it(`grows the server's RSS by less than ${allowance.formula}`, { timeout: 120_000 }, async () => {
    const started = Date.now();
    const store = await backendStore(kind);
    cleanups.push(store.dispose);
    if (kind === "pglite") fs.cpSync(inject("pgliteTemplate"), path.join(store.uri, "pgdata"), { recursive: true });
    const env = { ...store.env, ...(RUN_BOUND === undefined ? {} : { TRACKER_MAX_IN_FLIGHT_REQUESTS: RUN_BOUND }) };
    server = await startServerProcess(["--backend-store-uri", store.uri], { env });
    const pid = server.child.pid!;
    const experimentId = (await call(server.url, "POST", "/api/2.0/mlflow/experiments/create", { name: "load" })).body
      .experiment_id as string;
    const runId = (
      (await call(server.url, "POST", "/api/2.0/mlflow/runs/create", { experiment_id: experimentId })).body as {
        run: { info: { run_id: string } };
      }
    ).run.info.run_id;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const tally: Tally = { ok: 0, busy: 0, served: new Set(), unconnected: new Map(), other: new Map() };
    // Warm-up: every code path compiled and the pool filled before the baseline is taken.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => client(agent, server!.port, runId, i, Date.now() + 1500, tally)),
    );
    const databasePids = () => (kind === "embedded-postgres" ? databaseProcesses(store.uri) : []);
    const before = rssOf(pid);
    const databaseBefore = pssOf(databasePids());
    let peak = before;
    let databasePeak = databaseBefore;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
      // The database's processes every fifth sample: reading every process's smaps costs more.
      if (samples++ % 5 === 0) databasePeak = Math.max(databasePeak, pssOf(databasePids()));
    }, 100);
    tally.ok = 0;
    tally.busy = 0;
    tally.served.clear();
    const loadStarted = Date.now();
    const until = loadStarted + RAMP_MS + SECONDS * 1000;
    // The measurement ends on time: the requests still open then are cut, so a slow machine makes
    // the test measure fewer requests, not last longer.
    const end = setTimeout(() => agent.destroy(), until - Date.now());
    try {
      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(agent, server!.port, runId, i, until, tally)));
    } finally {
      clearTimeout(end);
      clearInterval(sampler);
      agent.destroy();
    }
    const growth = peak - before;
    const mib = (bytes: number) => (bytes / MIB).toFixed(0);
    const database =
      kind === "embedded-postgres"
        ? `; database processes (postmaster and children, PSS): ${mib(databaseBefore)} -> peak ${mib(databasePeak)} MiB`
        : kind === "pglite"
          ? "; PGlite runs inside the server process"
          : "";
    const figures = `${kind}, bound ${RUN_BOUND ?? "default"}: server RSS ${mib(before)} -> peak ${mib(peak)} MiB (+${mib(growth)} MiB; allowed ${allowance.formula})${database}; ${tally.served.size} of ${CLIENTS} clients served, ${tally.ok} answered 200, ${tally.busy} answered 503 in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s; other answers: ${JSON.stringify([...tally.other])}; connections failed: ${JSON.stringify([...tally.unconnected])}; whole test ${((Date.now() - started) / 1000).toFixed(0)} s`;
    process.stdout.write(`${figures}\n`);
    expect([...tally.other], figures).toEqual([]);
    expect(tally.ok, figures).toBeGreaterThan(0);
    expect(growth, figures).toBeLessThan(allowance.bytes);
  });
});
