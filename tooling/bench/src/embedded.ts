import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { httpLoad, summarize, type Summary } from "./load.js";
import { scenarios as defineScenarios } from "./scenarios.js";
import { seed } from "./seed.js";
import { clusterPids, measureCpu, sampleRss, startServer, type CpuReport, type RssReport } from "./server-process.js";
import type { Load, Sizes } from "./settings.js";

/**
 * The embedded default (`tracker server` with no database URL: PostgreSQL 18 from the npm
 * binaries, started by the server itself, with its durable default settings) under the same
 * scenarios, data and HTTP load as the PostgreSQL pass, one worker as there.
 */

export interface EmbeddedScenarioResult {
  name: string;
  connections: number;
  summary: Summary;
  /** The tracker server process. */
  rss: RssReport;
  /** The embedded PostgreSQL's processes, summed (shared buffers count once per process that touched them). */
  postgresRss: RssReport;
  cpu: CpuReport;
  loadAverage: number;
  firstError?: string;
}

export interface EmbeddedResult {
  /** The embedded server as PostgreSQL names its version, and its data dir. */
  database: string;
  seedSeconds: number;
  results: EmbeddedScenarioResult[];
}

/** The embedded server's postmaster pid and connection URL, from PostgreSQL's own pid file. */
export function postmasterOf(dataDir: string): { pid: number; url: string } {
  const lines = fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n");
  const [pid, , , port, socketDir] = lines;
  return {
    pid: Number(pid),
    url: `postgresql://postgres@localhost:${port}/postgres?host=${encodeURIComponent(socketDir!)}`,
  };
}

export async function runEmbeddedPass(
  sizes: Sizes,
  load: Load,
  pick: (name: string) => boolean,
  log: (line: string) => void,
): Promise<EmbeddedResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-bench-embedded-"));
  // As root, the embedded PostgreSQL runs as another user, who must be able to enter the folder.
  fs.chmodSync(work, 0o755);
  const dataDir = path.join(work, "data");
  // Request logging off (warn), as in the PostgreSQL pass: at info the server writes a line per
  // request, and collecting them costs the bench process (the load generator) CPU.
  const server = await startServer(dataDir, 1, [], { TRACKER_EMBEDDED_DATABASE: "postgres" });
  try {
    const postmaster = postmasterOf(dataDir);
    const client = new pg.Client({ connectionString: postmaster.url });
    await client.connect();
    const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    await client.end();
    const database = `PostgreSQL ${version} (embedded) in ${path.join(dataDir, "postgres")}`;
    log(`\nembedded default: ${database}`);
    log("seeding the embedded database (direct SQL through its socket):");
    const seedStarted = performance.now();
    const data = await seed(postmaster.url, sizes, log, { searchRuns: pick("runs/search") });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const results: EmbeddedScenarioResult[] = [];
    for (const s of defineScenarios(data, sizes).filter((x) => pick(x.name))) {
      await httpLoad(server.url, s.connections, load.warmupSeconds, (n) => s.request(n + 1_000_000));
      const loadAverage = os.loadavg()[0];
      const rssSampler = sampleRss(server.pids());
      const postgresSampler = sampleRss(clusterPids(postmaster.pid));
      const cpuMeter = measureCpu(server.pids, postmaster.pid);
      const http = await httpLoad(server.url, s.connections, load.seconds, (n) => s.request(n));
      const cpu = cpuMeter.stop();
      const rss = rssSampler.stop();
      const postgresRss = postgresSampler.stop();
      const summary = summarize(http);
      log(
        `  ${s.name}: ${summary.requestsPerSecond.toFixed(1)} req/s, p50 ${summary.p50.toFixed(2)} ms${summary.errors ? `, ${summary.errors} errors` : ""}; ` +
          `server RSS peak ${(rss.peakBytes / 2 ** 20).toFixed(0)} MiB; CPU server ${cpu.server.toFixed(0)}%, postgres ${cpu.postgres.toFixed(0)}%, bench ${cpu.bench.toFixed(0)}% (load average ${loadAverage.toFixed(2)})`,
      );
      results.push({
        name: s.name,
        connections: s.connections,
        summary,
        rss,
        postgresRss,
        cpu,
        loadAverage,
        firstError: http.firstError,
      });
    }
    return { database, seedSeconds, results };
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
