/**
 * The command lines of the bench scripts (commander): `pnpm bench` (main.ts), `pnpm bench:artifacts`
 * (artifacts-main.ts) and `pnpm --filter @tracker/bench profile` (profile.ts). Each parse function
 * takes the arguments after the script's name; pnpm's `--` separator is dropped first.
 */
import path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { DOCS_DIR } from "./paths.js";
import { FULL_LOAD, type BaselineOrder, type Load } from "./settings.js";

export interface BenchArgs {
  quick: boolean;
  /** Scenario name fragments; empty runs every scenario. */
  only: string[];
  /** Folder that receives benchmarks.md and benchmarks/. */
  out: string;
  write: boolean;
  /** Overrides of the load settings, only those given. */
  load: Partial<Load>;
  /** Another build's dist/cli.js, measured over HTTP in the same run (`--baseline`). */
  baselineCli?: string;
  /** When the baseline is measured: beside each scenario (default) or after them all (`--baseline-after`). */
  baselineOrder: BaselineOrder;
}

/** Where the artifact bench measures the artifact service: a local folder, S3, or both. */
export type ArtifactBenchStore = "folder" | "s3";

export interface ArtifactBenchArgs {
  quick: boolean;
  write: boolean;
  stores: ArtifactBenchStore[];
}

export interface ProfileArgs {
  scenario: string;
  seconds: number;
  /** On the embedded default (PostgreSQL started by `tracker server`) instead of a throwaway cluster. */
  embedded: boolean;
  /** Entries listed by self time. */
  top: number;
  /** Where to keep the whole profile (a `.cpuprofile` file, e.g. for Chrome's DevTools); not kept without it. */
  keep?: string;
}

/** A number parser for commander: finite, at least 0, and above 0 unless `allowZero`. */
function numberAtLeast(allowZero: boolean, round = false): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
      throw new InvalidArgumentError(`needs a ${allowZero ? "non-negative" : "positive"} number`);
    return round ? Math.floor(n) : n;
  };
}

const positive = numberAtLeast(false);
const positiveInteger = numberAtLeast(false, true);
const nonNegativeInteger = numberAtLeast(true, true);
const names = (raw: string) => raw.split(",").filter(Boolean);
const integers = (raw: string) => raw.split(",").map(positiveInteger);

/** Drops pnpm's `--` separator, which commander would take for the end of the options. */
const withoutSeparator = (argv: readonly string[]) => argv.filter((a) => a !== "--");

export function benchCommand(): Command {
  return new Command("pnpm bench")
    .description(
      "tracker over HTTP against the same SQL sent straight to PostgreSQL; prints a table and writes " +
        "docs/benchmarks.md and docs/benchmarks/explain-runs-search.txt",
    )
    .option("--quick", "smoke run: tiny dataset, short runs; writes nothing unless --out is given")
    .option("--only <a,b,...>", "only the scenarios whose names contain one of these strings", names)
    .option("--seconds <s>", `measured seconds per scenario and side (default ${FULL_LOAD.seconds})`, positive)
    .option(
      "--workers <1,2,...>",
      `worker counts of the horizontal-scale section (default ${FULL_LOAD.workerCounts.join(",")})`,
      integers,
    )
    .option(
      "--startup-runs <n>",
      `runs of the start-up benchmark, 0 to skip (default ${FULL_LOAD.startupRuns})`,
      nonNegativeInteger,
    )
    .option(
      "--baseline <cli>",
      "another build's dist/cli.js (e.g. a copy of main's apps/server/dist): every scenario over HTTP on it too, " +
        "measured right before or after this build's (the order reversed every other scenario), to compare server CPU per request",
    )
    .option("--baseline-after", "measure the baseline after all of this build's scenarios instead (the old order)")
    .option("--no-embedded", "skip the pass on the embedded default (PostgreSQL started by tracker server)")
    .option("--out <dir>", "write benchmarks.md and benchmarks/ there (default docs/)")
    .option("--no-write", "print only")
    .showHelpAfterError();
}

/** `pnpm bench`'s options; `--help` and bad input end the process through commander (or throw after `exitOverride()`). */
export function parseBenchArgs(argv: readonly string[], command = benchCommand()): BenchArgs {
  const o = command.parse(withoutSeparator(argv), { from: "user" }).opts<{
    quick?: true;
    only?: string[];
    seconds?: number;
    workers?: number[];
    startupRuns?: number;
    embedded: boolean;
    baseline?: string;
    baselineAfter?: true;
    out?: string;
    write: boolean;
  }>();
  const load: Partial<Load> = {};
  if (o.seconds !== undefined) load.seconds = o.seconds;
  if (o.workers !== undefined) load.workerCounts = o.workers;
  if (o.startupRuns !== undefined) load.startupRuns = o.startupRuns;
  if (!o.embedded) load.embedded = false;
  const quick = o.quick === true;
  return {
    quick,
    only: o.only ?? [],
    out: o.out === undefined ? DOCS_DIR : path.resolve(o.out),
    // A quick smoke run does not overwrite docs/benchmarks.md unless told where to write.
    write: o.write && !(quick && o.out === undefined),
    load,
    ...(o.baseline === undefined ? {} : { baselineCli: path.resolve(o.baseline) }),
    baselineOrder: o.baselineAfter === true ? "after" : "interleaved",
  };
}

const STORES: readonly ArtifactBenchStore[] = ["folder", "s3"];

function storeList(raw: string): ArtifactBenchStore[] {
  const stores = raw.split(",").filter(Boolean);
  for (const s of stores)
    if (!STORES.includes(s as ArtifactBenchStore)) throw new InvalidArgumentError(`needs ${STORES.join(" and/or ")}`);
  return stores as ArtifactBenchStore[];
}

export function artifactBenchCommand(): Command {
  return new Command("pnpm bench:artifacts")
    .description(
      "the artifact service's benchmarks alone (a local folder, and S3: TEST_S3_URL, AWS_ENDPOINT_URL or a throwaway " +
        "Ceph radosgw); replaces their sections of docs/benchmarks.md",
    )
    .option("--quick", "smoke run: 16 MiB files instead of 2 GiB (folder) and 1 GiB (S3), 2 rounds; writes nothing")
    .option("--stores <folder,s3>", "the stores to measure (default both)", storeList)
    .option("--no-write", "print only")
    .showHelpAfterError();
}

export function parseArtifactBenchArgs(argv: readonly string[], command = artifactBenchCommand()): ArtifactBenchArgs {
  const o = command
    .parse(withoutSeparator(argv), { from: "user" })
    .opts<{ quick?: true; write: boolean; stores?: ArtifactBenchStore[] }>();
  const quick = o.quick === true;
  return { quick, write: o.write && !quick, stores: o.stores ?? [...STORES] };
}

export function profileCommand(): Command {
  return new Command("pnpm --filter @tracker/bench profile")
    .description(
      "one scenario against `tracker server --cpu-prof`: top functions by self time, packages by inclusive time",
    )
    .option("--scenario <name>", "the scenario to profile", "log-metric")
    .option("--seconds <s>", "measured seconds", positive, 10)
    .option(
      "--embedded",
      "on the embedded default (PostgreSQL started by tracker server) instead of a throwaway cluster",
    )
    .option("--top <n>", "functions listed by self time", positiveInteger, 15)
    .option("--keep <file>", "keep the whole .cpuprofile there (Chrome's DevTools open it)")
    .showHelpAfterError();
}

export function parseProfileArgs(argv: readonly string[], command = profileCommand()): ProfileArgs {
  const o = command
    .parse(withoutSeparator(argv), { from: "user" })
    .opts<{ scenario: string; seconds: number; embedded?: true; top: number; keep?: string }>();
  return {
    scenario: o.scenario,
    seconds: o.seconds,
    embedded: o.embedded === true,
    top: o.top,
    ...(o.keep === undefined ? {} : { keep: path.resolve(o.keep) }),
  };
}
