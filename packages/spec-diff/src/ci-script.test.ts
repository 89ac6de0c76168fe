// scripts/ci-spec-diff.sh as CI runs it, in throwaway repositories laid out like this one (the
// script, the built bin and spec/): whatever the clone looks like, it passes when the specs did
// not change, and fails on an unacknowledged breaking change against the merge base.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const specDir = path.resolve(pkg, "../../spec");
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-ci-"));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    stdio: "pipe",
  });

/** A repository with the script, the bin (linked) and a small spec with a shared component file. */
function repository(name: string): string {
  const repo = path.join(temp, name);
  fs.mkdirSync(path.join(repo, "packages", "spec-diff", "scripts"), { recursive: true });
  fs.copyFileSync(
    path.join(pkg, "scripts", "ci-spec-diff.sh"),
    path.join(repo, "packages", "spec-diff", "scripts", "ci-spec-diff.sh"),
  );
  fs.symlinkSync(path.join(pkg, "dist"), path.join(repo, "packages", "spec-diff", "dist"));
  fs.symlinkSync(path.join(pkg, "node_modules"), path.join(repo, "packages", "spec-diff", "node_modules"));
  fs.cpSync(path.join(pkg, "src", "fixtures", "external-refs"), path.join(repo, "spec"), {
    recursive: true,
    filter: (f) => !/expected|after\.yaml/.test(f),
  });
  fs.renameSync(path.join(repo, "spec", "before.yaml"), path.join(repo, "spec", "rev-x.yaml"));
  fs.writeFileSync(path.join(repo, ".gitignore"), "node_modules\ndist\n");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "spec");
  return repo;
}

function ci(repo: string): { code: number | null; output: string } {
  const result = spawnSync("bash", ["packages/spec-diff/scripts/ci-spec-diff.sh"], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, GITHUB_ACTIONS: "", NO_COLOR: "1" },
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

/** A breaking change: the type of `Widget.id` in the shared components file. */
function breakSpec(repo: string): void {
  const file = path.join(repo, "spec", "components", "widgets.yaml");
  const text = fs.readFileSync(file, "utf8");
  expect(text).toContain("id: { type: integer, format: int64 }");
  fs.writeFileSync(file, text.replace("id: { type: integer, format: int64 }", "id: { type: string }"));
}

describe("scripts/ci-spec-diff.sh", () => {
  let single: string;
  beforeAll(() => {
    expect(fs.existsSync(path.join(specDir, "rev-c.yaml"))).toBe(true);
    single = repository("single");
  });

  it("skips, passing, in a clone with one commit and no origin", () => {
    const { code, output } = ci(single);
    expect(output).toContain("no merge base");
    expect(code).toBe(0);
  });

  it("passes in a clean clone of main (origin/main is HEAD)", () => {
    const clone = path.join(temp, "clone");
    git(temp, "clone", "-q", single, clone);
    fs.symlinkSync(path.join(pkg, "dist"), path.join(clone, "packages", "spec-diff", "dist"));
    fs.symlinkSync(path.join(pkg, "node_modules"), path.join(clone, "packages", "spec-diff", "node_modules"));
    const { code, output } = ci(clone);
    expect(output).toContain("spec/rev-x.yaml: unchanged");
    expect(code).toBe(0);
  });

  it("fails on a breaking change committed on a branch, with its line, and passes once acknowledged", () => {
    const clone = path.join(temp, "branch");
    git(temp, "clone", "-q", single, clone);
    fs.symlinkSync(path.join(pkg, "dist"), path.join(clone, "packages", "spec-diff", "dist"));
    fs.symlinkSync(path.join(pkg, "node_modules"), path.join(clone, "packages", "spec-diff", "node_modules"));
    git(clone, "checkout", "-q", "-b", "change");
    breakSpec(clone);
    git(clone, "commit", "-q", "-am", "break");
    const failing = ci(clone);
    expect(failing.output).toMatch(/BREAKING .*type of `widget\.id` changed: integer \(int64\) → string/);
    expect(failing.output).toMatch(/spec\/components\/widgets\.yaml:7:\d+ → 7:\d+/);
    expect(failing.code).toBe(1);

    const spec = path.join(clone, "spec", "rev-x.yaml");
    fs.writeFileSync(
      spec,
      fs
        .readFileSync(spec, "utf8")
        .replace(
          "operationId: getWidget",
          "operationId: getWidget\n      x-breaking-change-acknowledged: {change: widget.id, reason: ids are strings now}",
        ),
    );
    git(clone, "commit", "-q", "-am", "acknowledge");
    const passing = ci(clone);
    expect(passing.output).toContain("acknowledged: ids are strings now");
    expect(passing.code).toBe(0);
  });

  it("compares the last commit when there is no origin (HEAD~1)", () => {
    breakSpec(single);
    git(single, "commit", "-q", "-am", "break");
    expect(ci(single).code).toBe(1);
  });
});
