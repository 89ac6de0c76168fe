import fs from "node:fs";
import path from "node:path";
import { bundleSources } from "./bundle.js";
import { type DiffOptions, diffDocuments } from "./diff.js";
import { git } from "./git.js";
import { isObject, type JsonValue } from "./json.js";
import { displayPath, fileReader, gitReader, gitRepository, type LoadOptions, loadSpec } from "./load.js";
import { loadSources, type SourceSet, sameSources } from "./sources.js";
import type { Report } from "./types.js";

export interface CompareOptions extends Omit<DiffOptions, "from" | "to" | "sources">, Partial<LoadOptions> {}

/** Loads two inputs (files, URLs, `<git-ref>:<path>`, revision names) and compares them. */
export async function compareSpecs(from: string, to: string, options: CompareOptions = {}): Promise<Report> {
  const load: LoadOptions = {
    cwd: options.cwd ?? process.env.INIT_CWD ?? process.cwd(),
    ...(options.specDir ? { specDir: options.specDir } : {}),
  };
  const [before, after] = await Promise.all([loadSpec(from, load), loadSpec(to, load)]);
  return diffDocuments(before.document, after.document, {
    ...options,
    from: before.label,
    to: after.label,
    sources: { before: before.sources, after: after.sources },
  });
}

/** One spec file of a comparison with a git ref. */
export interface FileComparison {
  /** The file, relative to the working directory. */
  file: string;
  /** `added`: not at the ref; `removed`: only at the ref; `unchanged`: the file and all it `$ref`s are the same. */
  status: "changed" | "unchanged" | "added" | "removed";
  report?: Report;
}

export interface RefComparison {
  ref: string;
  files: FileComparison[];
}

export interface RefCompareOptions extends CompareOptions {
  /** Folders or files to look for specs in (git pathspecs, relative to cwd); default: cwd. */
  paths?: string[];
}

const SPEC_EXTENSION = /\.(ya?ml|json)$/i;
const OPENAPI_HEAD = /^openapi\s*:|"openapi"\s*:/m;

function hasOperations(value: JsonValue): boolean {
  return isObject(value) && isObject(value.paths) && Object.keys(value.paths).length > 0;
}

function isOpenApiText(text: string): boolean {
  return OPENAPI_HEAD.test(text.slice(0, 4096));
}

/**
 * Compares every OpenAPI document of the working tree (below `paths`) with the same file at `ref`.
 * A file that another spec `$ref`s (spec/components/*.yaml) is compared through the specs that use it.
 */
export async function compareWithRef(ref: string, options: RefCompareOptions = {}): Promise<RefComparison> {
  const cwd = options.cwd ?? process.env.INIT_CWD ?? process.cwd();
  const repo = await gitRepository(ref, cwd);
  const pathspecs = options.paths && options.paths.length > 0 ? options.paths : ["."];
  const list = async (args: string[]) =>
    (await git([...args, "--", ...pathspecs], cwd))
      .split("\0")
      .filter((f) => SPEC_EXTENSION.test(f))
      .map((f) => path.join(repo.root, f));
  const [working, atRef] = await Promise.all([
    list(["ls-files", "-z", "--full-name", "--cached", "--others", "--exclude-standard"]),
    list(["ls-tree", "-r", "-z", "--name-only", "--full-name", ref]),
  ]);

  const current = new Map<string, SourceSet>();
  for (const file of new Set(working)) {
    if (!fs.existsSync(file) || !isOpenApiText(fs.readFileSync(file, "utf8"))) continue;
    current.set(file, await loadSources(file, fileReader(cwd)));
  }
  // A file that another spec `$ref`s and that has no paths of its own holds components only.
  const referenced = new Set<string>();
  for (const set of current.values()) for (const id of set.files.keys()) if (id !== set.root.id) referenced.add(id);
  for (const [file, set] of current) if (hasOperations(set.root.value)) referenced.delete(file);

  const files: FileComparison[] = [];
  const reader = gitReader(ref, repo.root, cwd);
  for (const [file, after] of current) {
    if (referenced.has(file)) continue;
    // Every file the spec reaches has the same text at the ref: nothing to parse or compare.
    const same = await Promise.all(
      [...after.files.values()].map((f) =>
        reader.read(f.id).then(
          (text) => text === f.text,
          () => false,
        ),
      ),
    );
    if (same.every(Boolean)) {
      files.push({ file: displayPath(file, cwd), status: "unchanged" });
      continue;
    }
    let before: SourceSet;
    try {
      before = await loadSources(file, reader);
    } catch (error) {
      if (atRef.includes(file)) throw error;
      files.push({ file: displayPath(file, cwd), status: "added" });
      continue;
    }
    if (sameSources(before, after)) {
      files.push({ file: displayPath(file, cwd), status: "unchanged" });
      continue;
    }
    const report = diffDocuments(bundleSources(before), bundleSources(after), {
      ...options,
      from: `${ref}:${displayPath(file, cwd)}`,
      to: displayPath(file, cwd),
      sources: { before, after },
    });
    files.push({ file: displayPath(file, cwd), status: "changed", report });
  }
  for (const file of atRef) {
    if (fs.existsSync(file) || referenced.has(file)) continue;
    if (isOpenApiText(await reader.read(file))) files.push({ file: displayPath(file, cwd), status: "removed" });
  }
  files.sort((x, y) => x.file.localeCompare(y.file));
  return { ref, files };
}
