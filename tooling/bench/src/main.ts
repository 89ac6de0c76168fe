/**
 * pnpm bench [--quick] [--only <name,...>] [--seconds s] [--workers 1,2] [--startup-runs n] [--no-embedded]
 *   [--out <dir>] [--no-write] [--help] (options.ts)
 *
 * Starts a throwaway PostgreSQL, seeds it, runs tracker against it and drives it over HTTP, beside
 * the same SQL sent straight to PostgreSQL; prints a table and writes docs/benchmarks.md and
 * docs/benchmarks/explain-runs-search.txt (or into --out).
 */
import fs from "node:fs";
import path from "node:path";
import { runBench } from "./bench.js";
import { parseBenchArgs } from "./options.js";
import { consoleReport, explainText, markdownReport, notesSection, type NotePage } from "./report.js";

/** The notes in `dir` (Markdown files other than earlier generated reports) with their first heading. */
function notesIn(dir: string): NotePage[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".md"))
    .map((file) => ({ file, title: /^# (.+)$/m.exec(fs.readFileSync(path.join(dir, file), "utf8"))?.[1] ?? file }))
    .filter((n) => n.title !== "Benchmarks");
}

export function writeReport(result: Awaited<ReturnType<typeof runBench>>, outDir: string, command: string): string[] {
  fs.mkdirSync(path.join(outDir, "benchmarks"), { recursive: true });
  const files = [path.join(outDir, "benchmarks.md")];
  fs.writeFileSync(files[0], markdownReport(result, command) + notesSection(notesIn(path.join(outDir, "benchmarks"))));
  const explain = explainText(result);
  if (explain) {
    files.push(path.join(outDir, "benchmarks", "explain-runs-search.txt"));
    fs.writeFileSync(files[1], explain);
  }
  return files;
}

async function main() {
  const args = parseBenchArgs(process.argv.slice(2));
  const result = await runBench({
    quick: args.quick,
    only: args.only,
    load: args.load,
    baselineCli: args.baselineCli,
    baselineOrder: args.baselineOrder,
  });
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
