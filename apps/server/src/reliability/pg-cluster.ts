import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process.js";

/**
 * A throwaway PostgreSQL cluster a test can stop and start at will (as scripts/pg-throwaway.sh
 * does): initdb into a temporary folder, trust authentication, 127.0.0.1 on a free port. Run as
 * the `postgres` user when the tests run as root.
 */

export function postgresBinDir(): string | undefined {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : [];
  try {
    for (const version of fs.readdirSync("/usr/lib/postgresql").sort().reverse()) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  } catch {
    // not installed here
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, "pg_ctl")) && fs.existsSync(path.join(dir, "initdb")));
}

export interface PgCluster {
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  crash(): void;
  start(): void;
  destroy(): void;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

export async function startCluster(): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries not found (install the Debian package postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-pgfault-"));
  const asOwner = (cmd: string, args: string[]) => {
    const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    execFileSync(file, argv as string[], { stdio: "pipe", timeout: 60_000 });
  };
  if (isRoot()) execFileSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  asOwner("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  const port = await freePort();
  // Durable commits (no synchronous_commit=off): an acknowledged write must survive the crash.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`;
  const start = () => asOwner("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "60", "-o", options, "start"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: () => asOwner("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]),
    start,
    destroy() {
      try {
        asOwner("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
