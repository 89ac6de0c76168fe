import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  childProcesses,
  processTreeCpuMs,
  runCli as runTrackerCli,
  startServerProcess,
  type ServerProcess as TrackerProcess,
} from "@tracker/testing";
import { SERVER_CLI } from "./paths.js";

/** CPU time (ms) each server process may use before the server counts as failing to start. */
const READY_CPU_BUDGET_MS = 60_000;

/** `tracker server` as users run it (the built CLI), in its own process(es). */
export interface ServerProcess {
  url: string;
  child: TrackerProcess["child"];
  /** The primary's pid and its workers' (node:cluster children). */
  pids(): number[];
  stop(): Promise<void>;
}

/** Runs the CLI to completion (db migrate); throws when it fails. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const run = await runTrackerCli(args, env, 600_000);
  if (run.code !== 0) throw new Error(`tracker ${args.join(" ")} exited ${run.code}:\n${run.stdout}${run.stderr}`);
}

/**
 * `tracker server` on the given backend store (a PostgreSQL URL, or a folder for the embedded
 * database that `env.TRACKER_EMBEDDED_DATABASE` picks, PGlite unless it says otherwise) with
 * `workers` processes; `nodeArgs` go to node itself (e.g. `--cpu-prof`), after any in
 * TRACKER_BENCH_NODE_ARGS (space-separated: to compare V8 settings), and
 * TRACKER_BENCH_SERVER_CLI may name another build to compare.
 */
export async function startServer(
  backendStore: string,
  workers: number,
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
  cli = SERVER_CLI,
): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-bench-server-"));
  // Request logging off (warn, the default of startServerProcess): the raw side logs nothing either.
  // A cold start costs 5-8 s of CPU per process; on a loaded machine that is minutes of wall-clock
  // time, so the bound is the processes' CPU (as startServerProcess's), not a clock.
  const cpuBudgetMs = READY_CPU_BUDGET_MS * workers;
  const server = await startServerProcess(["--backend-store-uri", backendStore, "--workers", String(workers)], {
    env: { TRACKER_DATA_DIR: dataDir, TRACKER_WORKERS: String(workers), ...env },
    nodeArgs: [...(process.env.TRACKER_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...nodeArgs],
    cli,
    cpuBudgetMs,
  });
  const pid = server.child.pid!;
  const pids = () => (workers > 1 ? [pid, ...childProcesses(pid)] : [pid]);
  let healthy = 0;
  let polls = 0;
  // Ready when every worker is up and /health answered a few times in a row.
  while (healthy < 3 * workers) {
    if (!server.alive()) throw new Error(`tracker server exited:\n${server.output()}`);
    // The process tree's CPU since it started, read about once a second (a scan of /proc).
    const cpuMs = ++polls % 10 === 0 ? processTreeCpuMs(pid) : 0;
    if (cpuMs > cpuBudgetMs) {
      server.kill();
      throw new Error(`tracker server not ready after ${cpuMs} ms of CPU (budget ${cpuBudgetMs}):\n${server.output()}`);
    }
    try {
      const res = await fetch(`${server.url}/health`);
      await res.arrayBuffer();
      healthy = res.status === 200 && pids().length === (workers > 1 ? workers + 1 : 1) ? healthy + 1 : 0;
    } catch {
      healthy = 0;
    }
    await new Promise((r) => setTimeout(r, healthy > 0 ? 50 : 100));
  }
  return {
    url: server.url,
    child: server.child,
    pids,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return kb * 1024;
  } catch {
    return 0;
  }
}

export interface RssReport {
  /** Summed VmRSS of the server processes when the scenario started. */
  startBytes: number;
  /** Summed per-process peak during the scenario (VmHWM after a reset, and 20 ms samples of VmRSS). */
  peakBytes: number;
}

/**
 * Samples the server's resident memory during a scenario. VmHWM (the kernel's own peak) is reset
 * through /proc/<pid>/clear_refs at the start where the kernel allows it; 20 ms samples of VmRSS
 * back it up where it does not.
 */
export function sampleRss(pids: number[]): { stop(): RssReport } {
  const peaks = new Map<number, number>();
  let hwmReset = true;
  for (const pid of pids) {
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      hwmReset = false;
    }
  }
  const sample = () => {
    for (const pid of pids) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, statusField(pid, "VmRSS")));
  };
  sample();
  const startBytes = [...peaks.values()].reduce((a, b) => a + b, 0);
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let peakBytes = 0;
      for (const pid of pids) peakBytes += Math.max(peaks.get(pid) ?? 0, hwmReset ? statusField(pid, "VmHWM") : 0);
      return { startBytes, peakBytes };
    },
  };
}

const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/** A process's user and system CPU time in seconds (/proc/<pid>/stat, all its threads); zeros once it is gone. */
function processCpu(pid: number): { user: number; system: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
    return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
  } catch {
    return { user: 0, system: 0 };
  }
}

const processCpuSeconds = (pid: number): number => {
  const { user, system } = processCpu(pid);
  return user + system;
};

/** Context switches of a process's main thread so far (/proc/<pid>/status): waits for work, and preemptions. */
function contextSwitches(pid: number): { voluntary: number; involuntary: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const count = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
    return { voluntary: count("voluntary_ctxt_switches"), involuntary: count("nonvoluntary_ctxt_switches") };
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
}

/** Pids of one PostgreSQL cluster: the postmaster and its children (backends, helpers). */
export function clusterPids(postmasterPid: number): number[] {
  return [postmasterPid, ...childProcesses(postmasterPid)];
}

export interface CpuReport {
  /** CPU used during the interval, in percent of one core: server processes, PostgreSQL, this process (load generator). */
  server: number;
  postgres: number;
  bench: number;
  /** Of `server`, the first server pid's (the node:cluster primary's, when there are workers). */
  primary?: number;
  /** Of `server`, the system (kernel) part; the rest is user time. */
  serverSystem?: number;
  /** Context switches of the server processes' main threads during the interval (per second). */
  serverSwitches?: { voluntary: number; involuntary: number };
}

/** CPU time of the server, PostgreSQL and the bench itself over an interval. */
export function measureCpu(serverPids: () => number[], postmasterPid: number): { stop(): CpuReport } {
  const postgresPids = () => clusterPids(postmasterPid);
  const before = new Map<number, number>();
  for (const pid of [...serverPids(), ...postgresPids()]) before.set(pid, processCpuSeconds(pid));
  const systemBefore = new Map(serverPids().map((pid) => [pid, processCpu(pid).system]));
  const switchesBefore = new Map(serverPids().map((pid) => [pid, contextSwitches(pid)]));
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const used = (pids: number[]) =>
    pids.reduce((sum, pid) => sum + Math.max(0, processCpuSeconds(pid) - (before.get(pid) ?? 0)), 0);
  return {
    stop() {
      const seconds = (performance.now() - started) / 1000;
      const own = process.cpuUsage(ownBefore);
      const percent = (cpu: number) => (100 * cpu) / seconds;
      const server = serverPids();
      const switches = { voluntary: 0, involuntary: 0 };
      for (const pid of server) {
        const now = contextSwitches(pid);
        const then = switchesBefore.get(pid) ?? { voluntary: 0, involuntary: 0 };
        switches.voluntary += (now.voluntary - then.voluntary) / seconds;
        switches.involuntary += (now.involuntary - then.involuntary) / seconds;
      }
      return {
        primary: server.length > 1 ? percent(used(server.slice(0, 1))) : undefined,
        server: percent(used(server)),
        serverSystem: percent(
          server.reduce((sum, pid) => sum + Math.max(0, processCpu(pid).system - (systemBefore.get(pid) ?? 0)), 0),
        ),
        serverSwitches: switches,
        postgres: percent(used(postgresPids())),
        bench: percent((own.user + own.system) / 1e6),
      };
    },
  };
}
