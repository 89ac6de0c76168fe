/**
 * pnpm bench [--quick] [--only <name,...>] [--seconds s] [--workers 1,2] [--startup-runs n] [--out <dir>] [--no-write]
 *
 * Starts a throwaway PostgreSQL, seeds it, runs tracker against it and drives it over HTTP, beside
 * the same SQL sent straight to PostgreSQL; prints a table and writes docs/benchmarks.md and
 * docs/benchmarks/explain-runs-search.txt (or into --out).
 */
import fs from "node:fs";
import path from "node:path";
import { runBench } from "./bench.js";
import { DOCS_DIR } from "./paths.js";
import { FULL_LOAD, type Load } from "./settings.js";
import { consoleReport, explainText, markdownReport } from "./report.js";

const USAGE = `usage: pnpm bench [options]
  --quick               smoke run: tiny dataset, short runs; writes nothing unless --out is given
  --only <a,b,...>      only the scenarios whose names contain one of these strings
  --seconds <s>         measured seconds per scenario and side (default ${FULL_LOAD.seconds})
  --workers <1,2,...>   worker counts of the horizontal-scale section (default ${FULL_LOAD.workerCounts.join(",")})
  --startup-runs <n>    runs of the start-up benchmark, 0 to skip (default ${FULL_LOAD.startupRuns})
  --no-embedded         skip the pass on the embedded default (PostgreSQL started by tracker server)
  --out <dir>           write benchmarks.md and benchmarks/ there (default docs/)
  --no-write            print only
`;

function positive(flag: string, raw: string | undefined, allowZero = false): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    process.stderr.write(`${flag} needs a ${allowZero ? "non-negative" : "positive"} number\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

function parseArgs(argv: string[]) {
  const args = {
    quick: false,
    only: [] as string[],
    out: DOCS_DIR,
    write: true,
    outGiven: false,
    load: {} as Partial<Load>,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    else if (a === "--quick") args.quick = true;
    else if (a === "--no-write") args.write = false;
    else if (a === "--no-embedded") args.load.embedded = false;
    else if (a === "--only") args.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (a === "--seconds") args.load.seconds = positive(a, argv[++i]);
    else if (a === "--startup-runs") args.load.startupRuns = Math.floor(positive(a, argv[++i], true));
    else if (a === "--workers")
      args.load.workerCounts = (argv[++i] ?? "").split(",").map((w) => Math.floor(positive(a, w)));
    else if (a === "--out") {
      args.out = path.resolve(argv[++i] ?? ".");
      args.outGiven = true;
    } else if (a === "--help" || a === "-h") {
      process.stdout.write(USAGE);
      process.exit(0);
    } else {
      process.stderr.write(`unknown argument ${a}\n`);
      process.exit(2);
    }
  }
  // A quick smoke run does not overwrite docs/benchmarks.md unless told where to write.
  if (args.quick && !args.outGiven) args.write = false;
  return args;
}

export function writeReport(result: Awaited<ReturnType<typeof runBench>>, outDir: string, command: string): string[] {
  fs.mkdirSync(path.join(outDir, "benchmarks"), { recursive: true });
  const files = [path.join(outDir, "benchmarks.md")];
  fs.writeFileSync(files[0], markdownReport(result, command));
  const explain = explainText(result);
  if (explain) {
    files.push(path.join(outDir, "benchmarks", "explain-runs-search.txt"));
    fs.writeFileSync(files[1], explain);
  }
  return files;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const result = await runBench({ quick: args.quick, only: args.only, load: args.load });
  process.stdout.write(`${consoleReport(result)}\n`);
  if (args.write) {
    const command = ["pnpm bench", ...process.argv.slice(2).filter((a) => a !== "--")].join(" ");
    for (const file of writeReport(result, args.out, command))
      process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().catch((err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
