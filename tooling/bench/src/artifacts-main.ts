/**
 * pnpm bench:artifacts [--quick] [--stores folder,s3] [--no-write] [--help]: the artifact service's benchmarks
 * alone, on a local folder (artifacts.ts) and on S3 (s3-artifacts.ts); replaces their sections of
 * docs/benchmarks.md and leaves the rest of the report as it is.
 */
import fs from "node:fs";
import path from "node:path";
import {
  ARTIFACT_MARKERS,
  artifactMarkdown,
  artifactTargets,
  runArtifactBench,
  type SectionMarkers,
  spliceSection,
} from "./artifacts.js";
import { parseArtifactBenchArgs } from "./options.js";
import { DOCS_DIR } from "./paths.js";
import { runS3Bench, S3_MARKERS, s3BenchSkipped, s3Markdown, s3Targets } from "./s3-artifacts.js";

const argv = process.argv.slice(2).filter((a) => a !== "--");
const { quick, write, stores } = parseArtifactBenchArgs(argv);
const log = (line: string) => process.stdout.write(`${line}\n`);
const command = ["pnpm bench:artifacts", ...argv].join(" ");
const sections: Array<{ markdown: string; markers: SectionMarkers; after?: SectionMarkers }> = [];
if (stores.includes("folder")) {
  const result = await runArtifactBench({ quick, log });
  for (const c of artifactTargets(result)) log(`  ${c.met ? "MET    " : "NOT MET"}  ${c.target}: ${c.measured}`);
  sections.push({ markdown: artifactMarkdown(result, command), markers: ARTIFACT_MARKERS });
}
if (stores.includes("s3")) {
  const result = await runS3Bench({ quick, log });
  if (!s3BenchSkipped(result)) {
    for (const c of s3Targets(result)) log(`  ${c.met ? "MET    " : "NOT MET"}  ${c.target}: ${c.measured}`);
    // A skipped run leaves the figures of the last run in the report.
    sections.push({ markdown: s3Markdown(result, command), markers: S3_MARKERS, after: ARTIFACT_MARKERS });
  }
}
if (write && sections.length > 0) {
  const file = path.join(DOCS_DIR, "benchmarks.md");
  let report = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  for (const s of sections) report = spliceSection(report, s.markdown, s.markers, s.after);
  fs.writeFileSync(file, report);
  log(`wrote ${path.relative(process.cwd(), file)}`);
}
