/**
 * Loading a spec to compare: a file, an http(s) URL, `<git-ref>:<path>`, or a revision name of a
 * project's spec folder (`a` -> `<spec dir>/rev-a.yaml`). The files are read as written
 * (./sources.ts, for locations) and bundled into one document (./bundle.ts), since api-smart-diff
 * only follows internal references.
 */
import fs from "node:fs";
import path from "node:path";
import { bundleSources } from "./bundle.js";
import { git } from "./git.js";
import type { OpenApiDocument } from "./json.js";
import { isUrl, loadSources, type SourceReader, type SourceSet } from "./sources.js";

export type SpecInput =
  | { kind: "file"; file: string; revision?: string }
  | { kind: "url"; url: string }
  | { kind: "git"; ref: string; path: string };

export interface LoadOptions {
  /** Where relative paths start. */
  cwd: string;
  /** A folder of `rev-<name>.yaml` files: `<name>` (or `rev-<name>`) names a revision there. */
  specDir?: string;
}

export interface LoadedSpec {
  /** How the input is named in reports: `revision A`, `spec/rev-c.yaml`, `origin/main:spec/rev-c.yaml`. */
  label: string;
  document: OpenApiDocument;
  /** The files as written, for locations. */
  sources: SourceSet;
}

const REVISION_NAME = /^(?:rev-?)?([a-z0-9]+)$/i;

/** Tells what a command-line argument names. Files win over revision names and git refs. */
export function parseSpecInput(arg: string, options: LoadOptions): SpecInput {
  if (isUrl(arg)) return { kind: "url", url: arg };
  const file = path.resolve(options.cwd, arg);
  if (fs.existsSync(file)) return { kind: "file", file };
  const revision = REVISION_NAME.exec(arg)?.[1]?.toLowerCase();
  if (revision && options.specDir) {
    const candidate = path.join(options.specDir, `rev-${revision}.yaml`);
    if (fs.existsSync(candidate)) return { kind: "file", file: candidate, revision };
  }
  const colon = arg.indexOf(":");
  if (colon > 0 && colon < arg.length - 1) return { kind: "git", ref: arg.slice(0, colon), path: arg.slice(colon + 1) };
  const revisions = options.specDir ? "a revision name, " : "";
  throw new Error(`"${arg}" is neither ${revisions}an existing file, an http(s) URL, nor <git-ref>:<path>`);
}

/** Loads and bundles one input. */
export async function loadSpec(arg: string, options: LoadOptions): Promise<LoadedSpec> {
  const input = parseSpecInput(arg, options);
  switch (input.kind) {
    case "file": {
      const sources = await loadSources(input.file, fileReader(options.cwd));
      const label = input.revision ? `revision ${input.revision.toUpperCase()}` : sources.root.display;
      return { label, sources, document: bundleSources(sources) };
    }
    case "url": {
      const sources = await loadSources(input.url, fileReader(options.cwd));
      return { label: input.url, sources, document: bundleSources(sources) };
    }
    case "git": {
      const repo = await gitRepository(input.ref, options.cwd);
      const start = /^\.\.?\//.test(input.path)
        ? path.resolve(options.cwd, input.path)
        : path.resolve(repo.root, input.path);
      const sources = await loadSources(start, gitReader(input.ref, repo.root, options.cwd));
      return { label: arg, sources, document: bundleSources(sources) };
    }
  }
}

/** Loads a file and bundles it (cross-file `$ref`s inside). */
export async function bundleFile(file: string, cwd = process.cwd()): Promise<OpenApiDocument> {
  return bundleSources(await loadSources(path.resolve(cwd, file), fileReader(cwd)));
}

/** `spec/rev-c.yaml` for a file below `cwd`, the absolute path otherwise. */
export function displayPath(file: string, cwd: string): string {
  if (isUrl(file)) return file;
  const relative = path.relative(cwd, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative.split(path.sep).join("/");
}

async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/yaml, application/json, text/plain, */*" } });
  } catch (error) {
    throw new Error(`cannot fetch ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  return response.text();
}

/** Reads files from the file system (and URLs from the network). */
export function fileReader(cwd: string): SourceReader {
  return {
    read: async (id) => {
      if (isUrl(id)) return fetchText(id);
      try {
        return await fs.promises.readFile(id, "utf8");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new Error(code === "ENOENT" ? `${displayPath(id, cwd)} does not exist` : `cannot read ${id}: ${code}`);
      }
    },
    display: (id) => displayPath(id, cwd),
  };
}

export interface GitRepository {
  root: string;
}

/** The repository `cwd` is in, after checking that `ref` names one of its commits. */
export async function gitRepository(ref: string, cwd: string): Promise<GitRepository> {
  let root: string;
  try {
    root = (await git(["rev-parse", "--show-toplevel"], cwd)).trim();
  } catch {
    throw new Error(`${cwd} is not inside a git repository (needed for the git ref "${ref}")`);
  }
  try {
    await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  } catch {
    throw new Error(`"${ref}" is not a commit of the git repository at ${root}`);
  }
  return { root: fs.realpathSync(root) };
}

/**
 * Reads files as they are at a git ref (`git show <ref>:<path>`); the files a spec `$ref`s are
 * read at the same ref. Locations name the files as in the working tree, with the ref beside.
 */
export function gitReader(ref: string, root: string, cwd: string): SourceReader {
  return {
    ref,
    read: async (id) => {
      if (isUrl(id)) return fetchText(id);
      const relative = path.relative(root, realish(id)).split(path.sep).join("/");
      if (relative.startsWith("../")) throw new Error(`${id} is outside the repository at ${root}`);
      try {
        return await git(["show", `${ref}:${relative}`], root);
      } catch {
        throw new Error(`${relative} does not exist at ${ref}`);
      }
    },
    display: (id) => displayPath(id, cwd),
  };
}

/** The real path of a file whose folder exists (a file may exist only at the ref). */
function realish(file: string): string {
  let dir = path.dirname(file);
  const rest = [path.basename(file)];
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) {
    rest.unshift(path.basename(dir));
    dir = path.dirname(dir);
  }
  return path.join(fs.realpathSync(dir), ...rest);
}
