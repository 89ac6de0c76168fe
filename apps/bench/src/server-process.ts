import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SERVER_CLI } from "./paths.js";

/** `tracker server` as users run it (the built CLI), in its own process(es). */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The primary's pid and its workers' (node:cluster children). */
  pids(): number[];
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function childPids(parent: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may contain spaces, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) found.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** Runs the CLI to completion (db migrate). */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`tracker ${args.join(" ")} exited ${code}:\n${output}`))));
  });
}

export async function startServer(databaseUrl: string, workers: number, nodeArgs: string[] = []): Promise<ServerProcess> {
  if (!fs.existsSync(SERVER_CLI)) throw new Error(`${SERVER_CLI} is missing: run pnpm --filter @tracker/server build`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-bench-server-"));
  const child = spawn(
    process.execPath,
    [...nodeArgs, SERVER_CLI, "server", "--port", String(port), "--backend-store-uri", databaseUrl, "--workers", String(workers)],
    {
      // Request logging off (warn): the raw side logs nothing either.
      env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", TRACKER_DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid!;
  const pids = () => (workers > 1 ? [pid, ...childPids(pid)] : [pid]);
  const started = performance.now();
  let healthy = 0;
  // Ready when every worker is up and /health answered a few times in a row.
  while (healthy < 3 * workers) {
    if (child.exitCode !== null) throw new Error(`tracker server exited with ${child.exitCode}:\n${output}`);
    if (performance.now() - started > 60_000) {
      child.kill("SIGKILL");
      throw new Error(`tracker server not ready after 60 s:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      await res.arrayBuffer();
      healthy = res.status === 200 && pids().length === (workers > 1 ? workers + 1 : 1) ? healthy + 1 : 0;
    } catch {
      healthy = 0;
    }
    await new Promise((r) => setTimeout(r, healthy > 0 ? 50 : 100));
  }
  return {
    url,
    child,
    pids,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
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

function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Pids of one PostgreSQL cluster: the postmaster and its children (backends, helpers). */
export function clusterPids(postmasterPid: number): number[] {
  return [postmasterPid, ...childPids(postmasterPid)];
}

export interface CpuReport {
  /** CPU used during the interval, in percent of one core: server processes, PostgreSQL, this process (load generator). */
  server: number;
  postgres: number;
  bench: number;
}

/** CPU time of the server, PostgreSQL and the bench itself over an interval. */
export function measureCpu(serverPids: () => number[], postmasterPid: number): { stop(): CpuReport } {
  const postgresPids = () => clusterPids(postmasterPid);
  const before = new Map<number, number>();
  for (const pid of [...serverPids(), ...postgresPids()]) before.set(pid, processCpuSeconds(pid));
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const used = (pids: number[]) => pids.reduce((sum, pid) => sum + Math.max(0, processCpuSeconds(pid) - (before.get(pid) ?? 0)), 0);
  return {
    stop() {
      const seconds = (performance.now() - started) / 1000;
      const own = process.cpuUsage(ownBefore);
      const percent = (cpu: number) => (100 * cpu) / seconds;
      return {
        server: percent(used(serverPids())),
        postgres: percent(used(postgresPids())),
        bench: percent((own.user + own.system) / 1e6),
      };
    },
  };
}
