// The review of a spec change as CI runs it (`spec-diff <merge-base> --spec-dir spec --fail-on
// breaking`, scripts/ci-spec-diff.sh), on a copy of spec/rev-c.yaml in a throwaway repository:
// one field changed shows at its line with its classification, fails the gate until it is
// acknowledged in the spec, then passes visibly.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./cli.js";
import type { RefComparison } from "./compare.js";

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../spec");

describe("reviewing a change of spec/rev-c.yaml against a git ref", () => {
  let repo: string;
  let revC: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: repo,
      stdio: "pipe",
      encoding: "utf8",
    });
  const review = async (...args: string[]) => {
    const output = path.join(repo, `out-${Math.random().toString(36).slice(2)}.txt`);
    const code = await main(
      ["HEAD", "--spec-dir", path.join(repo, "spec"), "--fail-on", "breaking", "-o", output, ...args],
      {
        INIT_CWD: repo,
      },
    );
    const text = fs.readFileSync(output, "utf8");
    fs.rmSync(output);
    return { code, text };
  };
  /** Replaces the one occurrence of `from` in rev-c.yaml; returns the 1-based line where `to` starts. */
  const edit = (original: string, from: string, to: string): { text: string; line: number } => {
    const at = original.indexOf(from);
    expect(at, `${from} is in rev-c.yaml`).toBeGreaterThan(-1);
    expect(original.indexOf(from, at + 1), `${from} is unique in rev-c.yaml`).toBe(-1);
    return { text: original.replace(from, to), line: original.slice(0, at).split("\n").length };
  };

  beforeAll(() => {
    repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-review-")));
    fs.mkdirSync(path.join(repo, "spec"));
    fs.copyFileSync(path.join(specDir, "rev-c.yaml"), path.join(repo, "spec", "rev-c.yaml"));
    fs.cpSync(path.join(specDir, "components"), path.join(repo, "spec", "components"), { recursive: true });
    fs.writeFileSync(path.join(repo, ".gitignore"), "out-*\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "spec");
    revC = path.join(repo, "spec", "rev-c.yaml");
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("passes with no change, and names the file unchanged", async () => {
    const { code, text } = await review("--format", "json");
    expect(code).toBe(0);
    expect((JSON.parse(text) as RefComparison).files).toEqual([{ file: "spec/rev-c.yaml", status: "unchanged" }]);
  });

  it("shows a changed field at its line, fails on it, and passes once it is acknowledged", async () => {
    const original = fs.readFileSync(revC, "utf8");
    const description = "          description: Name of the run; generated";
    const anchor = `        run_name:\n          type: string\n${description}`;
    const changed = edit(original, anchor, `        run_name:\n          type: integer\n${description}`);
    fs.writeFileSync(revC, changed.text);
    const typeLine = changed.line + 1; // the line of `type:` below `run_name:`

    const github = await review("--format", "github");
    expect(github.code).toBe(1);
    const errors = github.text.split("\n").filter((l) => l.startsWith("::error "));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) {
      expect(line).toContain(`file=spec/rev-c.yaml,line=${typeLine},col=11,title=breaking%3A `);
      expect(line).toMatch(
        /type of `[a-z_.[\]]*run_name` changed: string → integer \(was HEAD:spec\/rev-c\.yaml:\d+:11\)/,
      );
    }

    const acknowledged = edit(
      original,
      anchor,
      "        run_name:\n          x-breaking-change-acknowledged:\n            change: run_name\n" +
        `            reason: run names are numbered from now on\n          type: integer\n${description}`,
    );
    fs.writeFileSync(revC, acknowledged.text);
    const passing = await review("--format", "github");
    expect(passing.code).toBe(0);
    const warnings = passing.text.split("\n").filter((l) => l.startsWith("::warning "));
    expect(warnings.length).toBe(errors.length);
    expect(passing.text).not.toContain("::error ");
    expect(warnings[0]).toContain(`line=${acknowledged.line + 4},col=11,title=breaking (acknowledged)%3A `);
    expect(warnings[0]).toContain("%0AAcknowledged: run names are numbered from now on");
    fs.writeFileSync(revC, original);
  });
});
