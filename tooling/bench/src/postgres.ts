import { execFileSync } from "node:child_process";
import path from "node:path";
import { postgresBinDir, startCluster as startThrowawayCluster } from "@tracker/testing";
import { REPO_ROOT } from "./paths.js";

/** A throwaway PostgreSQL cluster (@tracker/testing), tuned as CI's (scripts/pg-throwaway.sh). */
export interface Cluster {
  url: string;
  /** The server log (stderr of postgres); statement capture reads it. */
  logFile: string;
  version: string;
  /** The postmaster's pid (its children are the backends and helper processes). */
  postmasterPid: number;
  stop(): Promise<void>;
}

/** True when PostgreSQL binaries are installed (in /usr/lib/postgresql/<v>/bin or $PG_BIN). */
export function postgresInstalled(): boolean {
  return postgresBinDir() !== undefined;
}

export async function startCluster(): Promise<Cluster> {
  if (!postgresInstalled()) {
    // Installs the Debian package when run as root, as CI does.
    execFileSync(
      "bash",
      ["-c", `set -e; . "${path.join(REPO_ROOT, "scripts", "pg-throwaway.sh")}"; pg_throwaway_install`],
      { stdio: "inherit" },
    );
  }
  const cluster = await startThrowawayCluster({
    settings: { synchronous_commit: "off", full_page_writes: "off", max_connections: 300 },
  });
  return {
    url: cluster.url,
    logFile: cluster.logFile,
    version: cluster.version,
    postmasterPid: cluster.postmasterPid(),
    async stop() {
      cluster.destroy();
    },
  };
}
