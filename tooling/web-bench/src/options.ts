/**
 * The command lines of the web UI bench (commander): `pnpm bench:web` (main.ts) and
 * `pnpm --filter @tracker/web-bench bench:bulk-interval` (bulk-interval.ts). pnpm's `--` separator
 * is dropped first (commander would take it for the end of the options).
 */
import { Command } from "commander";

export interface WebBenchArgs {
  quick: boolean;
  /** Write the figures into docs/benchmarks.md (never with --quick or --only). */
  write: boolean;
  /** Run one part alone (prints only): "transfer". */
  only?: "transfer";
}

export function webBenchCommand(): Command {
  return new Command("pnpm bench:web")
    .description(
      "the web UI's size and speed in Debian Chromium against tracker on PostgreSQL; writes its section of docs/benchmarks.md",
    )
    .option("--quick", "smoke run: small data; writes nothing")
    .option("--no-write", "print only")
    .option("--only <part>", "run one part alone and print its figures: transfer")
    .showHelpAfterError();
}

export function bulkIntervalCommand(): Command {
  return new Command("pnpm --filter @tracker/web-bench bench:bulk-interval")
    .description("metrics/get-history-bulk-interval alone, and what keeping it fast costs the writes; prints only")
    .option("--quick", "smoke run: small data")
    .showHelpAfterError();
}

/** Parses `argv` (the arguments after the script's name) with `command`; `--help` and bad input end the process. */
export function parseWebBenchArgs(argv: readonly string[], command = webBenchCommand()): WebBenchArgs {
  const o = command
    .parse(dropSeparator(argv), { from: "user" })
    .opts<{ quick?: true; write?: boolean; only?: string }>();
  const quick = o.quick === true;
  if (o.only !== undefined && o.only !== "transfer") throw new Error(`--only takes 'transfer', not '${o.only}'`);
  const only = o.only;
  return { quick, write: o.write !== false && !quick && only === undefined, ...(only ? { only } : {}) };
}

export interface ChartsViewArgs {
  quick: boolean;
  /** Another build of the web UI to measure beside this one, on the same data. */
  before?: string;
  /** The built server module (dist/index.js) that serves `before`, on a database of its own. */
  beforeServer?: string;
  /** Navigations per build that count (median). */
  navigations: number;
  /** Navigations per build first, printed apart and not counted: the first is cold (fresh server, empty browser caches). */
  warmUps: number;
}

export function chartsViewCommand(): Command {
  return new Command("pnpm --filter @tracker/web-bench bench:charts-view")
    .description("the runs page's charts view alone (100 runs x 8 metrics x 1,000 steps); prints only")
    .option("--quick", "smoke run: small data")
    .option(
      "--before <dir>",
      "also measure another build of the UI (a folder like apps/web/dist) from a second server on the same data, in turn with this one",
    )
    .option(
      "--before-server <file>",
      "with --before: serve it from another build of the server (its dist/index.js) on a second database seeded alike, to measure a server change too",
    )
    .option("--navigations <n>", "navigations per build that count (their median is the figure)", "5")
    .option(
      "--warm-ups <n>",
      "navigations per build first, printed but not counted (the first is cold: fresh server, empty browser caches)",
      "1",
    )
    .showHelpAfterError();
}

/** Parses the charts-view bench's arguments (after the script's name); `--help` and bad input end the process. */
export function parseChartsViewArgs(argv: readonly string[], command = chartsViewCommand()): ChartsViewArgs {
  const o = command
    .parse(dropSeparator(argv), { from: "user" })
    .opts<{ quick?: true; before?: string; beforeServer?: string; navigations: string; warmUps: string }>();
  if (o.beforeServer && !o.before) command.error("--before-server needs --before");
  const count = (flag: string, value: string, least: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < least) command.error(`${flag} takes a whole number from ${least}, not '${value}'`);
    return n;
  };
  return {
    quick: o.quick === true,
    navigations: count("--navigations", o.navigations, 1),
    warmUps: count("--warm-ups", o.warmUps, 0),
    ...(o.before ? { before: o.before } : {}),
    ...(o.beforeServer ? { beforeServer: o.beforeServer } : {}),
  };
}

/** The arguments without pnpm's `--` separator (commander would take it for the end of the options). */
function dropSeparator(argv: readonly string[]): string[] {
  return argv.filter((a) => a !== "--");
}
