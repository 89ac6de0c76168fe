/**
 * `spec-diff <from> <to>`: compares two OpenAPI documents (files, URLs, `<git-ref>:<path>`,
 * revision names with --spec-dir). `spec-diff <git-ref>`: compares every spec of the working
 * tree with the same file at the ref.
 *
 * Exit status: 0; 1 when --fail-on is given and an unacknowledged change of that class (or a
 * worse one) was found; 2 when an input cannot be read or the options are wrong.
 */
import fs from "node:fs";
import path from "node:path";
import { Command, Option } from "commander";
import { countsAsFailure, type FailOn } from "./classify.js";
import { compareSpecs, compareWithRef, type FileComparison, type RefComparison } from "./compare.js";
import { renderGithubAnnotations } from "./github.js";
import { allChanges } from "./location.js";
import { renderMarkdown } from "./markdown.js";
import { renderText, wantsColour } from "./text.js";
import type { Report } from "./types.js";

export const FORMATS = ["markdown", "json", "github", "text"] as const;
export type Format = (typeof FORMATS)[number];

interface Options {
  format: Format;
  failOn: FailOn;
  output?: string;
  cwd?: string;
  specDir?: string;
  path?: string[];
}

const STATUS_TEXT: Record<Exclude<FileComparison["status"], "changed">, string> = {
  unchanged: "unchanged",
  added: "new since the ref, not compared",
  removed: "removed since the ref",
};

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = new Command()
    .name("spec-diff")
    .description(
      "Compares two OpenAPI 3.0/3.1 documents and classifies every change as breaking, non-breaking or annotation,\n" +
        "with its line in the old and the new file.\n\n" +
        "  spec-diff <from> <to>   files, http(s) URLs, <git-ref>:<path>, or revision names (with --spec-dir)\n" +
        "  spec-diff <git-ref>     every OpenAPI file of the working tree against the same file at the ref",
    )
    .argument("<from>", "the earlier spec, or a git ref")
    .argument("[to]", "the later spec")
    .addOption(new Option("-f, --format <format>", "report format").choices([...FORMATS]).default("markdown"))
    .addOption(
      new Option("--fail-on <class>", "exit 1 when an unacknowledged change of this class or a worse one is found")
        .choices(["breaking", "non-breaking", "annotation", "none"])
        .default("none"),
    )
    .option("-o, --output <file>", "write the report to a file instead of standard output")
    .option("--cwd <dir>", "directory that relative paths start from (default: where npm/pnpm was started, else .)")
    .option("--spec-dir <dir>", "folder of rev-<name>.yaml files: <name> names a revision; searched by <git-ref> mode")
    .option(
      "--path <path...>",
      "with <git-ref>: where to look for specs (default: --spec-dir, else the current folder)",
    )
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return code === 0 ? 0 : 2;
  }
  const [from, to] = program.args as [string, string | undefined];
  const options = program.opts<Options>();
  const cwd = path.resolve(options.cwd ?? env.INIT_CWD ?? process.cwd());
  const specDir = options.specDir ? path.resolve(options.specDir) : undefined;

  let result: Report | RefComparison;
  try {
    result =
      to === undefined
        ? await compareWithRef(from, {
            cwd,
            ...(specDir ? { specDir } : {}),
            paths: options.path ?? (specDir ? [specDir] : []),
          })
        : await compareSpecs(from, to, { cwd, ...(specDir ? { specDir } : {}) });
  } catch (error) {
    process.stderr.write(`spec-diff: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const reports = "files" in result ? result.files.flatMap((f) => (f.report ? [f.report] : [])) : [result];
  const colour = options.format === "text" && !options.output && wantsColour(process.stdout, env);
  const text = render(result, options.format, colour);
  if (options.output) fs.writeFileSync(path.resolve(cwd, options.output), text);
  else process.stdout.write(text);
  if (options.format === "github" && env.GITHUB_STEP_SUMMARY) {
    fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${render(result, "markdown", false)}\n`);
  }

  if (options.failOn !== "none") {
    const failing = reports.flatMap(allChanges).filter((c) => countsAsFailure(c, options.failOn));
    if (failing.length > 0) {
      const what = options.failOn === "breaking" ? "unacknowledged breaking" : `${options.failOn} or more severe`;
      process.stderr.write(
        `spec-diff: ${failing.length} ${what} ${failing.length === 1 ? "change" : "changes"} (--fail-on ${options.failOn})\n`,
      );
      return 1;
    }
  }
  return 0;
}

function render(result: Report | RefComparison, format: Format, colour: boolean): string {
  const one = (report: Report, level: number): string => {
    switch (format) {
      case "json":
        return `${JSON.stringify(report, null, 2)}\n`;
      case "github":
        return renderGithubAnnotations(report);
      case "text":
        return renderText(report, { colour });
      default:
        return renderMarkdown(report, { level });
    }
  };
  if (!("files" in result)) return one(result, 1);
  if (format === "json") return `${JSON.stringify(result, null, 2)}\n`;
  const parts: string[] = [];
  if (format === "markdown") parts.push(`# API changes against ${result.ref}\n`);
  const others = result.files.filter((f) => !f.report);
  if (result.files.length === 0) parts.push("No OpenAPI documents found.\n");
  else if (others.length > 0) {
    const bullet = format === "markdown" ? "- " : "";
    const status = (f: FileComparison) => STATUS_TEXT[f.status as keyof typeof STATUS_TEXT];
    parts.push(`${others.map((f) => `${bullet}${f.file}: ${status(f)}`).join("\n")}\n`);
  }
  for (const file of result.files) if (file.report) parts.push(one(file.report, 2));
  return parts.join("\n");
}

/** Runs the command with the process's arguments and sets the exit code. */
export function run(): void {
  // `spec-diff ... | head`: a closed pipe is not an error.
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

const invoked = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (invoked.endsWith(`${path.sep}cli.ts`) || invoked.endsWith(`${path.sep}cli.js`)) run();
