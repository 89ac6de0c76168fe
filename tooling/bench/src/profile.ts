/**
 * pnpm --filter @tracker/bench profile [--scenario log-metric] [--seconds 10] [--embedded] [--top 15] [--keep file]
 *
 * CPU profile of `tracker server` (one process, `node --cpu-prof`) under the bench's HTTP load of
 * one scenario on a throwaway PostgreSQL (or, with --embedded, on the embedded default): prints the top functions by self time and the packages
 * by inclusive time (share of samples with the package anywhere on the stack).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { httpLoad } from "./load.js";
import { parseProfileArgs } from "./options.js";
import { startCluster } from "./postgres.js";
import { scenarios } from "./scenarios.js";
import { postmasterOf } from "./embedded.js";
import { seed } from "./seed.js";
import { runCli, startServer } from "./server-process.js";
import { QUICK } from "./settings.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where a frame's code lives: a package name, "tracker", "node" (built-ins) or a V8 pseudo-frame. */
export function packageOf(url: string, functionName: string): string {
  const pnpm =
    /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) ??
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1];
  if (url.includes("/apps/server/")) return "tracker";
  if (url.startsWith("node:") || (url === "" && functionName !== "" && !functionName.startsWith("("))) return "node";
  return functionName || "(anonymous)";
}

/** A frame as the summary names it: function, package and line. */
function labelOf({ functionName, url, lineNumber }: ProfileNode["callFrame"]): string {
  return `${functionName || "(anonymous)"} ${packageOf(url, functionName)}${url ? `:${lineNumber + 1}` : ""}`;
}

export interface ProfileSummary {
  totalSamples: number;
  selfTop: Array<{ name: string; percent: number }>;
  packages: Array<{ name: string; percent: number }>;
  /** Functions by inclusive time (share of samples with the function anywhere on the stack). */
  functions: Array<{ name: string; percent: number }>;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Top functions by self time and packages by inclusive time, of the samples taken in the last
 * `windowSeconds` before `endMicros` (the measured load, not start-up or warm-up).
 */
export function summariseProfile(
  profile: CpuProfile,
  windowSeconds: number,
  endMicros: number,
  top = 15,
): ProfileSummary {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hitsOf = new Map<number, number>();
  let t = profile.startTime;
  const from = endMicros - windowSeconds * 1e6;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    if (t >= from && t <= endMicros) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
  });
  let total = 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = hitsOf.get(n.id) ?? 0;
    if (hits === 0) continue;
    if (n.callFrame.functionName === "(idle)") continue;
    total += hits;
    const label = labelOf(n.callFrame);
    self.set(label, (self.get(label) ?? 0) + hits);
    const seen = new Set<string>();
    const onStack = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      seen.add(packageOf(frame.url, frame.functionName));
      onStack.add(labelOf(frame));
    }
    for (const p of seen) inclusive.set(p, (inclusive.get(p) ?? 0) + hits);
    for (const f of onStack) functions.set(f, (functions.get(f) ?? 0) + hits);
  }
  const ranked = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, percent: (100 * hits) / total }));
  const real = (p: { name: string }) => !p.name.startsWith("(root)") && !p.name.startsWith("(program)");
  return {
    totalSamples: total,
    selfTop: ranked(self),
    packages: ranked(inclusive).filter(real),
    functions: ranked(functions).filter(real),
  };
}

/** Where the profiled server keeps its data: a throwaway cluster (migrated here) or the embedded default. */
interface ProfiledDatabase {
  /** What `tracker server` gets as its backend store. */
  backendStore: string;
  env: NodeJS.ProcessEnv;
  /** The URL the seed writes through, once the server is up (the embedded database starts with it). */
  seedUrl(): string;
  stop(): Promise<void>;
}

async function throwawayCluster(): Promise<ProfiledDatabase> {
  const cluster = await startCluster();
  await runCli(["db", "migrate", "--backend-store-uri", cluster.url], { DATABASE_URL: "" });
  return { backendStore: cluster.url, env: {}, seedUrl: () => cluster.url, stop: () => cluster.stop() };
}

function embeddedDefault(): ProfiledDatabase {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-profile-embedded-"));
  // As root, the embedded PostgreSQL runs as another user, who must be able to enter the folder.
  fs.chmodSync(work, 0o755);
  const dataDir = path.join(work, "data");
  return {
    backendStore: dataDir,
    env: { TRACKER_EMBEDDED_DATABASE: "postgres" },
    seedUrl: () => postmasterOf(dataDir).url,
    stop: async () => fs.rmSync(work, { recursive: true, force: true }),
  };
}

async function main() {
  const { scenario: name, seconds, embedded, top, keep } = parseProfileArgs(process.argv.slice(2));
  const database = embedded ? embeddedDefault() : await throwawayCluster();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-profile-"));
  try {
    // The profile's clock starts with the server process: the measured window is placed on it from
    // here (the launch) rather than from its end, which comes before the profile is written out
    // (seconds under load, which would pull warm-up and start-up work into the window).
    const launchedAt = performance.timeOrigin + performance.now();
    const server = await startServer(
      database.backendStore,
      1,
      ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
      database.env,
    );
    let measured: { from: number; to: number };
    try {
      const data = await seed(database.seedUrl(), QUICK, () => undefined, { searchRuns: name.includes("runs/search") });
      const scenario = scenarios(data, QUICK).find((s) => s.name === name);
      if (!scenario) throw new Error(`no scenario ${name}`);
      await httpLoad(server.url, scenario.connections, 2, (n) => scenario.request(n + 1_000_000));
      const from = performance.timeOrigin + performance.now();
      const result = await httpLoad(server.url, scenario.connections, seconds, (n) => scenario.request(n));
      measured = { from, to: performance.timeOrigin + performance.now() };
      process.stdout.write(
        `${name} (${embedded ? "embedded default" : "PostgreSQL cluster"}): ${(result.requests / result.seconds).toFixed(0)} req/s with the profiler on, ${result.errors} errors\n`,
      );
    } finally {
      await server.stop();
    }
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
    if (!file) throw new Error("the server wrote no CPU profile");
    if (keep !== undefined) fs.copyFileSync(path.join(profileDir, file), keep);
    // The profile's clock is the server's monotonic clock in microseconds, started at its launch:
    // the measured window (wall clock, this process) is placed on it from there.
    const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile & {
      endTime: number;
    };
    const endMicros = profile.startTime + (measured.to - launchedAt) * 1000;
    const summary = summariseProfile(profile, (measured.to - measured.from) / 1000, endMicros, top);
    process.stdout.write(`\nself time (of ${summary.totalSamples} samples, idle excluded):\n`);
    for (const e of summary.selfTop) process.stdout.write(`  ${e.percent.toFixed(1).padStart(5)}%  ${e.name}\n`);
    process.stdout.write(`\ninclusive, by package:\n`);
    for (const e of summary.packages) process.stdout.write(`  ${e.percent.toFixed(1).padStart(5)}%  ${e.name}\n`);
    process.stdout.write(`\ninclusive, by function:\n`);
    for (const e of summary.functions) process.stdout.write(`  ${e.percent.toFixed(1).padStart(5)}%  ${e.name}\n`);
  } finally {
    fs.rmSync(profileDir, { recursive: true, force: true });
    await database.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().catch((err) => {
    process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
