import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareSpecs } from "./compare.js";
import { loadSpec, parseSpecInput } from "./load.js";
import { externalRefs } from "./sources.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../spec");
const at = (cwd: string) => ({ cwd, specDir });

describe("parseSpecInput", () => {
  it("knows revision names, files and git refs", () => {
    expect(parseSpecInput("a", at(os.tmpdir()))).toEqual({
      kind: "file",
      file: path.join(specDir, "rev-a.yaml"),
      revision: "a",
    });
    expect(parseSpecInput("rev-C", at(os.tmpdir()))).toMatchObject({ kind: "file", revision: "c" });
    expect(parseSpecInput("https://example.com/api.yaml", at(os.tmpdir()))).toEqual({
      kind: "url",
      url: "https://example.com/api.yaml",
    });
    expect(parseSpecInput("before.yaml", at(path.join(fixtures, "fields")))).toEqual({
      kind: "file",
      file: path.join(fixtures, "fields", "before.yaml"),
    });
    expect(parseSpecInput("origin/main:spec/rev-c.yaml", at(os.tmpdir()))).toEqual({
      kind: "git",
      ref: "origin/main",
      path: "spec/rev-c.yaml",
    });
    expect(() => parseSpecInput("no-such-file.yaml", at(os.tmpdir()))).toThrow(/neither a revision name/);
    expect(() => parseSpecInput("a", { cwd: os.tmpdir() })).toThrow(/neither an existing file/);
  });

  it("prefers an existing file over a revision name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-"));
    fs.writeFileSync(path.join(dir, "a"), "");
    expect(parseSpecInput("a", at(dir))).toEqual({ kind: "file", file: path.join(dir, "a") });
    fs.rmSync(dir, { recursive: true });
  });
});

describe("externalRefs", () => {
  it("lists the files a document refers to", () => {
    const doc = {
      a: { $ref: "./components/x.yaml#/A" },
      b: [{ $ref: "#/local" }, { $ref: "../y.yaml" }],
      c: { $ref: "https://example.com/z.yaml" },
    };
    expect([...externalRefs(doc)].sort()).toEqual([
      "../y.yaml",
      "./components/x.yaml#/A",
      "https://example.com/z.yaml",
    ]);
  });
});

describe("loading revisions", () => {
  it("bundles a revision with its components", async () => {
    const spec = await loadSpec("c", at(os.tmpdir()));
    expect(spec.label).toBe("revision C");
    expect(JSON.stringify(spec.document)).not.toContain("components/errors.yaml");
  });
});

describe("<git-ref>:<path>", () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe", encoding: "utf8" });

  beforeAll(() => {
    // A repository whose spec refers to a components folder, as spec/rev-*.yaml do.
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-git-"));
    fs.cpSync(path.join(fixtures, "external-refs"), path.join(repo, "api"), { recursive: true });
    fs.copyFileSync(path.join(repo, "api", "before.yaml"), path.join(repo, "api", "spec.yaml"));
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "spec");
    fs.copyFileSync(path.join(repo, "api", "after.yaml"), path.join(repo, "api", "spec.yaml"));
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("reads the spec and the files it refers to at that ref", async () => {
    const report = await compareSpecs("HEAD:api/spec.yaml", "api/spec.yaml", { cwd: repo });
    expect(report.from).toBe("HEAD:api/spec.yaml");
    expect(report.summary).toMatchObject({ breaking: 1, "non-breaking": 1, annotation: 1 });
  });

  it("takes ./ paths relative to the working directory, as git does", async () => {
    const report = await compareSpecs("HEAD:./spec.yaml", "spec.yaml", { cwd: path.join(repo, "api") });
    expect(report.summary.breaking).toBe(1);
  });

  it("says when the ref or the file does not exist", async () => {
    await expect(compareSpecs("no-such-ref:api/spec.yaml", "api/spec.yaml", { cwd: repo })).rejects.toThrow(
      /not a commit/,
    );
    await expect(compareSpecs("HEAD:api/missing.yaml", "api/spec.yaml", { cwd: repo })).rejects.toThrow(
      /does not exist at HEAD/,
    );
  });
});
