import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./paths.js";

const run = promisify(execFile);
const HELPER = path.join(REPO_ROOT, "scripts", "pg-throwaway.sh");

/** A throwaway PostgreSQL cluster started by scripts/pg-throwaway.sh, the helper CI uses. */
export interface Cluster {
  url: string;
  /** The server log (stderr of postgres); statement capture reads it. */
  logFile: string;
  version: string;
  /** The postmaster's pid (its children are the backends and helper processes). */
  postmasterPid: number;
  stop(): Promise<void>;
}

/** True when PostgreSQL binaries are installed (the helper looks in /usr/lib/postgresql/<v>/bin). */
export function postgresInstalled(): boolean {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return false;
  return fs.readdirSync(base).some((v) => fs.existsSync(path.join(base, v, "bin", "postgres")));
}

async function helper(script: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run("bash", ["-c", `set -e; . "${HELPER}"; ${script}`], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 20,
  });
  return stdout;
}

export async function startCluster(): Promise<Cluster> {
  const out = await helper(
    `pg_throwaway_install >&2; pg_throwaway_start; echo "URL=$TEST_DATABASE_URL"; echo "TMP=$PG_TMP"; echo "BIN=$PG_BIN"; "$PG_BIN/postgres" --version`,
  );
  const field = (name: string) => out.match(new RegExp(`^${name}=(.*)$`, "m"))?.[1] ?? "";
  const url = field("URL");
  const tmp = field("TMP");
  const bin = field("BIN");
  if (!url || !tmp) throw new Error(`pg-throwaway.sh did not start a cluster:\n${out}`);
  const version = out.match(/postgres \(PostgreSQL\) (\S+)/)?.[1] ?? "unknown";
  let stopped = false;
  const postmasterPid = Number(fs.readFileSync(path.join(tmp, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    url,
    logFile: path.join(tmp, "log"),
    version,
    postmasterPid,
    async stop() {
      if (stopped) return;
      stopped = true;
      await helper("pg_throwaway_stop", { PG_TMP: tmp, PG_BIN: bin });
    },
  };
}
