/**
 * `pnpm spec:diff <from> <to> [--format markdown|json] [--fail-on breaking] [--output file]`
 *
 * Exit status: 0, or 1 when --fail-on is given and a change of that class (or a worse one) was
 * found, or 2 when an input cannot be read.
 */
import fs from "node:fs";
import path from "node:path";
import { Command, Option } from "commander";
import { countsAsFailure } from "./classify.js";
import { compareSpecs } from "./compare.js";
import { renderMarkdown } from "./markdown.js";
import { CLASSIFICATIONS, type Classification } from "./types.js";

export async function main(argv: string[]): Promise<number> {
  const program = new Command()
    .name("spec:diff")
    .description(
      "Compares two OpenAPI documents and classifies every change as breaking, non-breaking or annotation.\n" +
        "<from> and <to> are revision names (a, b, c), files, or <git-ref>:<path> (e.g. origin/main:spec/rev-c.yaml).",
    )
    .argument("<from>", "the earlier spec")
    .argument("<to>", "the later spec")
    .addOption(new Option("-f, --format <format>", "report format").choices(["markdown", "json"]).default("markdown"))
    .addOption(
      new Option("--fail-on <class>", "exit 1 when a change of this class or a worse one is found").choices([
        ...CLASSIFICATIONS,
      ]),
    )
    .option("-o, --output <file>", "write the report to a file instead of standard output")
    .option("--cwd <dir>", "directory that relative paths start from (default: where pnpm was started)")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return code === 0 ? 0 : 2;
  }
  const [from, to] = program.args as [string, string];
  const options = program.opts<{
    format: "markdown" | "json";
    failOn?: Classification;
    output?: string;
    cwd?: string;
  }>();
  const cwd = path.resolve(options.cwd ?? process.env.INIT_CWD ?? process.cwd());

  let report: Awaited<ReturnType<typeof compareSpecs>>;
  try {
    report = await compareSpecs(from, to, { cwd });
  } catch (error) {
    process.stderr.write(`spec:diff: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const text = options.format === "json" ? `${JSON.stringify(report, null, 2)}\n` : renderMarkdown(report);
  if (options.output) fs.writeFileSync(path.resolve(cwd, options.output), text);
  else process.stdout.write(text);

  if (options.failOn) {
    const failOn = options.failOn;
    const all = [...report.document, ...report.operations.flatMap((o) => o.changes)];
    const failing = all.filter((c) => countsAsFailure(c, failOn));
    if (failing.length > 0) {
      const what = failOn === "breaking" ? "breaking" : `${failOn} or more severe`;
      process.stderr.write(
        `spec:diff: ${failing.length} ${what} ${failing.length === 1 ? "change" : "changes"} (--fail-on ${failOn})\n`,
      );
      return 1;
    }
  }
  return 0;
}

const invoked = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (invoked.endsWith(`${path.sep}cli.ts`) || invoked.endsWith(`${path.sep}cli.js`)) {
  // `pnpm spec:diff ... | head`: a closed pipe is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
