import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./cli.js";
import type { Report } from "./types.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../spec");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-cli-"));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; output: string }> {
  const file = path.join(out, `report-${Math.random().toString(36).slice(2)}`);
  const code = await main([...args, "--output", file]);
  return { code, output: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "" };
}

describe("spec:diff command line", () => {
  it("prints markdown by default, and exits 0 without --fail-on", async () => {
    const { code, output } = await run("before.yaml", "after.yaml", "--cwd", path.join(fixtures, "fields"));
    expect(code).toBe(0);
    expect(output).toContain("# API changes: before.yaml → after.yaml");
  });

  it("prints JSON with --format json", async () => {
    const { output } = await run(
      "before.yaml",
      "after.yaml",
      "--cwd",
      path.join(fixtures, "enum-change"),
      "--format",
      "json",
    );
    const report = JSON.parse(output) as Report;
    expect(report.summary).toMatchObject({ breaking: 2, "non-breaking": 2 });
    expect(
      report.operations[0]?.changes.every((c) => ["breaking", "non-breaking", "annotation"].includes(c.classification)),
    ).toBe(true);
  });

  it("exits 1 with --fail-on breaking when a breaking change is found, 0 when none is", async () => {
    expect(
      (await run("before.yaml", "after.yaml", "--cwd", path.join(fixtures, "type-change"), "--fail-on", "breaking"))
        .code,
    ).toBe(1);
    expect(
      (await run("before.yaml", "after.yaml", "--cwd", path.join(fixtures, "deprecation"), "--fail-on", "breaking"))
        .code,
    ).toBe(0);
    expect(
      (await run("before.yaml", "after.yaml", "--cwd", path.join(fixtures, "deprecation"), "--fail-on", "non-breaking"))
        .code,
    ).toBe(1);
  });

  it("passes acknowledged breaking changes with --fail-on breaking, not with --fail-on non-breaking", async () => {
    const dir = path.join(fixtures, "acknowledged");
    // One of the three breaking changes of the fixture is not acknowledged.
    expect((await run("before.yaml", "after.yaml", "--cwd", dir, "--fail-on", "breaking")).code).toBe(1);
    const copy = fs.mkdtempSync(path.join(out, "ack-"));
    fs.copyFileSync(path.join(dir, "before.yaml"), path.join(copy, "before.yaml"));
    const after = fs.readFileSync(path.join(dir, "after.yaml"), "utf8");
    fs.writeFileSync(
      path.join(copy, "after.yaml"),
      after.replace(
        "id: { type: string }",
        "id:\n                    x-breaking-change-acknowledged: ids are strings now\n                    type: string",
      ),
    );
    expect((await run("before.yaml", "after.yaml", "--cwd", copy, "--fail-on", "breaking")).code).toBe(0);
    expect((await run("before.yaml", "after.yaml", "--cwd", copy, "--fail-on", "non-breaking")).code).toBe(1);
    expect((await run("before.yaml", "after.yaml", "--cwd", copy, "--fail-on", "none")).code).toBe(0);
  });

  it("honours only acknowledgements new in the later spec", async () => {
    const dir = fs.mkdtempSync(path.join(out, "stale-"));
    const acknowledged = fs.readFileSync(path.join(fixtures, "acknowledged", "after.yaml"), "utf8");
    fs.writeFileSync(path.join(dir, "before.yaml"), acknowledged);
    // widget_id changes again (string -> boolean); the entry naming it is the one of the earlier change.
    fs.writeFileSync(
      path.join(dir, "after.yaml"),
      acknowledged.replace("schema: { type: string }", "schema: { type: boolean }"),
    );
    const { code, output } = await run(
      "before.yaml",
      "after.yaml",
      "--cwd",
      dir,
      "--fail-on",
      "breaking",
      "--format",
      "json",
    );
    expect(code).toBe(1);
    const report = JSON.parse(output) as Report;
    expect(report.summary).toMatchObject({ breaking: 1, acknowledged: 0 });
  });

  it("writes GitHub annotations, and appends the markdown report to $GITHUB_STEP_SUMMARY", async () => {
    const summary = path.join(out, "summary.md");
    fs.writeFileSync(summary, "earlier step\n");
    const file = path.join(out, "github.txt");
    const code = await main(
      ["before.yaml", "after.yaml", "--cwd", path.join(fixtures, "fields"), "--format", "github", "-o", file],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toMatch(
      /^::error file=after\.yaml,line=12,col=\d+,title=breaking%3A POST widgets\/create::/m,
    );
    const written = fs.readFileSync(summary, "utf8");
    expect(written).toMatch(/^earlier step\n# API changes: before\.yaml → after\.yaml/);
    expect(written).toContain(
      "| **breaking** | request body | field `colour` removed | before.yaml:14 → after.yaml:12 |",
    );
  });

  it("colours the text view only when told (TTY, FORCE_COLOR) and never with NO_COLOR", async () => {
    const { wantsColour } = await import("./text.js");
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    const { output } = await run(
      "before.yaml",
      "after.yaml",
      "--cwd",
      path.join(fixtures, "fields"),
      "--format",
      "text",
    );
    expect(output).not.toContain("\u001b[");
    expect(output).toContain("before.yaml:14:17 → after.yaml:12:15");
  });

  it("resolves relative paths from INIT_CWD (the directory `pnpm spec:diff` was run in)", async () => {
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = path.join(fixtures, "operations");
    try {
      expect((await run("before.yaml", "after.yaml", "--fail-on", "breaking")).code).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });

  it("compares revisions by name", async () => {
    const { code, output } = await run("a", "b", "--spec-dir", specDir);
    expect(code).toBe(0);
    expect(output).toContain("# API changes: revision A → revision B");
  });

  it("exits 2 on an input it cannot read, and on bad options", async () => {
    expect((await run("no-such.yaml", "b")).code).toBe(2);
    expect((await run("a", "b", "--spec-dir", specDir, "--format", "xml")).code).toBe(2);
    expect((await run("a", "b", "--spec-dir", specDir, "--fail-on", "everything")).code).toBe(2);
  });
});
