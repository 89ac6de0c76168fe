import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./ports.js";

/**
 * A throwaway PostgreSQL cluster a test or benchmark can stop and start at will (as
 * scripts/pg-throwaway.sh does): initdb into a temporary folder, trust authentication, 127.0.0.1
 * on a free port. Run as the `postgres` user when the tests run as root.
 */

export function postgresBinDir(): string | undefined {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : [];
  try {
    for (const version of fs.readdirSync("/usr/lib/postgresql").sort().reverse())
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
  } catch {
    // not installed here
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, "pg_ctl")) && fs.existsSync(path.join(dir, "initdb")));
}

export interface PgCluster {
  url: string;
  port: number;
  /** The server log (postgres' stderr). */
  logFile: string;
  /** `postgres --version`'s number, e.g. "15.14". */
  version: string;
  /** The postmaster's pid while it runs (its children are the backends and helper processes). */
  postmasterPid(): number;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  crash(): void;
  start(): void;
  /** Stops the cluster (if running) and removes its folder. */
  destroy(): void;
}

export interface ClusterOptions {
  /** Extra `-c name=value` settings, e.g. `{ synchronous_commit: "off" }` for speed over durability. */
  settings?: Record<string, string | number>;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

export async function startCluster(options: ClusterOptions = {}): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries not found (install the Debian package postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-pg-"));
  const asOwner = (cmd: string, args: string[]) => {
    const [file, argv] = isRoot()
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args];
    return execFileSync(file, argv as string[], { stdio: "pipe", timeout: 60_000 }).toString();
  };
  if (isRoot()) execFileSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "log");
  asOwner("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  const port = await freePort();
  // Durable commits by default (no synchronous_commit=off): an acknowledged write must survive a crash.
  const settings = { listen_addresses: "127.0.0.1", fsync: "off", max_connections: 100, ...options.settings };
  const flags = [`-p ${port}`, `-k ${dir}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(" ");
  const start = () => void asOwner("pg_ctl", ["-D", data, "-l", logFile, "-w", "-t", "60", "-o", flags, "start"]);
  const stop = () => asOwner("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    logFile,
    version:
      execFileSync(path.join(bin, "postgres"), ["--version"])
        .toString()
        .match(/\(PostgreSQL\) (\S+)/)?.[1] ?? "unknown",
    postmasterPid: () => Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]),
    crash: () => void stop(),
    start,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
