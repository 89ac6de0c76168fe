// How the bin starts (src/launch.ts): the code cache that the build writes beside the bundle is
// used, a cache made from another bundle is not (not even one of the same length, which V8 alone
// would take), and the reports are the same with the cache, without it, and from main() itself.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./cli.js";
import { BUNDLE_FILE, CODE_CACHE_FILE } from "./launch.js";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(pkg, "dist");
const fixture = path.join(pkg, "src", "fixtures", "type-change");

/** Loads the bundle in `dir` in a new process, as the bin does, and tells whether V8 took the cache. */
function cacheUsedIn(dir: string): boolean {
  const launch = pathToFileURL(path.join(dir, "launch.js")).href;
  const script = `import { loadCommand, preferShortRun } from ${JSON.stringify(launch)};
preferShortRun();
process.stdout.write(String(loadCommand(${JSON.stringify(dir)}).cacheUsed));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout === "true";
}

/** The JSON report of the bin in `dir` (the published CommonJS one unless named) on the fixture. */
function binReport(dir: string, out: string, bin = "bin.cjs"): string {
  const args = [
    path.join(dir, bin),
    "before.yaml",
    "after.yaml",
    "--format",
    "json",
    "--output",
    out,
    "--cwd",
    fixture,
  ];
  const result = spawnSync(process.execPath, args, { cwd: fixture, encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return fs.readFileSync(out, "utf8");
}

describe("starting the bin", () => {
  let temp: string;
  let expected: string;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(dist, CODE_CACHE_FILE))) throw new Error("dist has no code cache: build first");
    temp = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-launch-"));
    const out = path.join(temp, "main.json");
    expect(await main(["before.yaml", "after.yaml", "--format", "json", "--output", out, "--cwd", fixture])).toBe(0);
    expected = fs.readFileSync(out, "utf8");
  });
  afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

  /** A copy of dist (with the package's module type) whose bundle `edit` changes. */
  function copyOfDist(name: string, edit: (bundle: string) => string): string {
    const dir = path.join(temp, name, "dist");
    fs.cpSync(dist, dir, { recursive: true });
    fs.writeFileSync(path.join(temp, name, "package.json"), JSON.stringify({ type: "module" }));
    const bundle = path.join(dir, BUNDLE_FILE);
    fs.writeFileSync(bundle, edit(fs.readFileSync(bundle, "utf8")));
    return dir;
  }

  it("uses the code cache written by the build, and reports what main() reports", () => {
    expect(cacheUsedIn(dist)).toBe(true);
    expect(binReport(dist, path.join(temp, "bin.json"))).toBe(expected);
  });

  it("runs as well from dist/bin.js, the same bin as an ES module", () => {
    expect(binReport(dist, path.join(temp, "bin-esm.json"), "bin.js")).toBe(expected);
  });

  it("does not use a code cache made from another bundle, even of the same length", () => {
    const longer = copyOfDist("longer", (bundle) => `${bundle}// another build\n`);
    const sameLength = copyOfDist("same-length", (bundle) => {
      const edited = bundle.replace("Compares two OpenAPI", "Compares TWO OpenAPI");
      expect(edited).not.toBe(bundle);
      return edited;
    });
    for (const dir of [longer, sameLength]) {
      expect(cacheUsedIn(dir)).toBe(false);
      expect(binReport(dir, path.join(dir, "report.json"))).toBe(expected);
    }
  });
});
