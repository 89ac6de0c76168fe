/**
 * pnpm bench:artifacts [--quick] [--no-write] [--help]: the artifact service's benchmark alone (see
 * artifacts.ts); replaces its section of docs/benchmarks.md and leaves the rest of the report as it is.
 */
import fs from "node:fs";
import path from "node:path";
import { artifactMarkdown, artifactTargets, runArtifactBench, spliceArtifactSection } from "./artifacts.js";
import { parseArtifactBenchArgs } from "./options.js";
import { DOCS_DIR } from "./paths.js";

const argv = process.argv.slice(2).filter((a) => a !== "--");
const { quick, write } = parseArtifactBenchArgs(argv);
const result = await runArtifactBench({ quick, log: (line) => process.stdout.write(`${line}\n`) });
for (const c of artifactTargets(result))
  process.stdout.write(`  ${c.met ? "MET    " : "NOT MET"}  ${c.target}: ${c.measured}\n`);
if (write) {
  const file = path.join(DOCS_DIR, "benchmarks.md");
  const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  fs.writeFileSync(
    file,
    spliceArtifactSection(before, artifactMarkdown(result, ["pnpm bench:artifacts", ...argv].join(" "))),
  );
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}
