/**
 * Loading a spec to compare: a revision name (a, b, c), a file, or `<git-ref>:<path>`. Every input
 * is bundled with Redocly's bundler (@redocly/openapi-core, the one behind `redocly bundle`) so
 * that cross-file `$ref`s (spec/components/*.yaml) are inside the document: api-smart-diff only
 * follows internal references.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundle, createConfig } from "@redocly/openapi-core";
import { REVISIONS, specFile, type Revision } from "@tracker/spec";
import { parse as parseYaml } from "yaml";
import { isObject, type JsonValue, type OpenApiDocument } from "./json.js";

export type SpecInput =
  | { kind: "revision"; revision: Revision }
  | { kind: "file"; file: string }
  | { kind: "git"; ref: string; path: string };

export interface LoadedSpec {
  /** How the input is named in reports: `revision A`, `spec/rev-c.yaml`, `origin/main:spec/rev-c.yaml`. */
  label: string;
  document: OpenApiDocument;
}

const REVISION_NAME = /^(?:rev-?)?([abc])$/i;

/** Tells what a command-line argument names. Files win over revision names and git refs. */
export function parseSpecInput(arg: string, cwd: string): SpecInput {
  const revision = REVISION_NAME.exec(arg)?.[1]?.toLowerCase();
  if (revision && (REVISIONS as readonly string[]).includes(revision) && !fs.existsSync(path.resolve(cwd, arg))) {
    return { kind: "revision", revision: revision as Revision };
  }
  const file = path.resolve(cwd, arg);
  if (fs.existsSync(file)) return { kind: "file", file };
  const colon = arg.indexOf(":");
  if (colon > 0 && colon < arg.length - 1) return { kind: "git", ref: arg.slice(0, colon), path: arg.slice(colon + 1) };
  throw new Error(`"${arg}" is neither a revision (a, b, c), an existing file, nor <git-ref>:<path>`);
}

/** Loads and bundles one input. `cwd` is where relative paths start (the user's directory). */
export async function loadSpec(arg: string, cwd: string): Promise<LoadedSpec> {
  const input = parseSpecInput(arg, cwd);
  switch (input.kind) {
    case "revision":
      return {
        label: `revision ${input.revision.toUpperCase()}`,
        document: await bundleFile(specFile(input.revision)),
      };
    case "file":
      return { label: displayPath(input.file, cwd), document: await bundleFile(input.file) };
    case "git":
      return { label: arg, document: await loadFromGit(input.ref, input.path, cwd) };
  }
}

/** Bundles a spec file and its cross-file `$ref`s into one document. */
export async function bundleFile(file: string): Promise<OpenApiDocument> {
  const config = await createConfig({});
  const result = await bundle({ ref: path.resolve(file), config });
  const errors = result.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    throw new Error(`cannot bundle ${file}: ${errors.map((p) => p.message).join("; ")}`);
  }
  const parsed: unknown = result.bundle.parsed;
  if (!isObject(parsed) || (typeof parsed.openapi !== "string" && typeof parsed.swagger !== "string")) {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  return parsed;
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative.split(path.sep).join("/");
}

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * Reads `<ref>:<path>` with `git show`, together with every file it `$ref`s (recursively, at the
 * same ref), into a temporary folder with the repository's layout, and bundles it there.
 * As in git, `path` is relative to the repository root, or to `cwd` when it starts with ./ or ../.
 */
export async function loadFromGit(ref: string, specPath: string, cwd: string): Promise<OpenApiDocument> {
  let root: string;
  try {
    root = git(["rev-parse", "--show-toplevel"], cwd).trim();
    git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  } catch {
    throw new Error(`"${ref}" is not a commit of the git repository at ${cwd}`);
  }
  const prefix = git(["rev-parse", "--show-prefix"], cwd).trim();
  const start = path.posix.normalize(/^\.\.?\//.test(specPath) ? prefix + specPath : specPath);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "spec-diff-"));
  try {
    const queue = [start];
    const done = new Set<string>();
    while (queue.length > 0) {
      const file = queue.shift() as string;
      if (done.has(file)) continue;
      done.add(file);
      if (file.startsWith("../")) throw new Error(`${ref}:${start} refers to ${file}, outside the repository`);
      let text: string;
      try {
        text = git(["show", `${ref}:${file}`], root);
      } catch {
        throw new Error(`${file} does not exist at ${ref}`);
      }
      const target = path.join(temp, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
      for (const referenced of externalRefs(parseYaml(text) as JsonValue)) {
        queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), referenced)));
      }
    }
    return await bundleFile(path.join(temp, start));
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** The files named by the `$ref`s of a document (`./components/errors.yaml#/...` -> `./components/errors.yaml`). */
export function externalRefs(node: JsonValue): Set<string> {
  const files = new Set<string>();
  const visit = (value: JsonValue): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string") {
          const file = child.split("#")[0] ?? "";
          if (file !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(file)) files.add(file);
        } else visit(child);
      }
    }
  };
  visit(node);
  return files;
}
