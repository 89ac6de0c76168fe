/**
 * The YAML (or JSON) files of one input as written: the root document and every file its `$ref`s
 * reach, each parsed once into its value and an index of where its nodes are written
 * (./positions.ts), so that a JSON path can be turned back into a file, line and column
 * (./locate.ts), and bundled into one document (./bundle.ts).
 *
 * Files are named by an id: an absolute path, or an http(s) URL. A `SourceReader` reads an id;
 * the readers differ in where they read from (the file system, `git show` at a ref, the network).
 */
import type { JsonValue } from "./json.js";
import { type PositionIndex, parseWithPositions } from "./positions.js";

export interface SourceFile {
  /** Absolute path or URL: what `$ref`s are resolved against. */
  id: string;
  /** How locations name the file: a path relative to the working directory, or the URL. */
  display: string;
  text: string;
  /** Where each node is written. */
  positions: PositionIndex;
  /** The parsed value (plain JSON). */
  value: JsonValue;
}

export interface SourceReader {
  read(id: string): Promise<string>;
  /** How locations name a file (`spec/rev-c.yaml`). */
  display(id: string): string;
  /** The git ref the files are read at, for locations (`origin/main`), if any. */
  ref?: string;
}

export interface SourceSet {
  root: SourceFile;
  files: Map<string, SourceFile>;
  ref?: string;
}

export function isUrl(id: string): boolean {
  return /^https?:\/\//i.test(id);
}

/** Splits a `$ref` into the file it names (resolved against `base`) and its JSON pointer segments. */
export function splitRef(base: string, ref: string): { file: string; pointer: string[] } {
  const hash = ref.indexOf("#");
  const filePart = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? "" : ref.slice(hash + 1);
  return { file: filePart === "" ? base : resolveId(base, filePart), pointer: pointerSegments(fragment) };
}

/** `/components/schemas/A~1B` -> ["components", "schemas", "A/B"]. */
export function pointerSegments(fragment: string): string[] {
  if (fragment === "" || fragment === "/") return [];
  return fragment
    .replace(/^\//, "")
    .split("/")
    .map((s) => safeDecode(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Resolves a relative file reference against the id of the file that holds it. */
export function resolveId(base: string, relative: string): string {
  if (isUrl(relative)) return relative;
  if (isUrl(base)) return new URL(relative, base).href;
  const slash = base.lastIndexOf("/");
  const dir = slash < 0 ? "." : base.slice(0, slash) || "/";
  return normalisePosix(relative.startsWith("/") ? relative : `${dir}/${relative}`);
}

function normalisePosix(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "." || (part === "" && out.length > 0)) continue;
    if (part === ".." && out.length > 1) out.pop();
    else out.push(part);
  }
  return out.join("/") || "/";
}

export function parseSource(id: string, display: string, text: string): SourceFile {
  let parsed: ReturnType<typeof parseWithPositions>;
  try {
    parsed = parseWithPositions(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${display}: ${message.split("\n")[0]}`);
  }
  return { id, display, text, positions: parsed.positions, value: parsed.value };
}

/** Reads the root file and, level by level, every file its `$ref`s name. */
export async function loadSources(rootId: string, reader: SourceReader): Promise<SourceSet> {
  const files = new Map<string, SourceFile>();
  let wave = [rootId];
  while (wave.length > 0) {
    const loaded = await Promise.all(
      wave.map(async (id) => {
        let text: string;
        try {
          text = await reader.read(id);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          throw new Error(id === rootId ? why : `${reader.display(id)} (referenced by a $ref): ${why}`);
        }
        return parseSource(id, reader.display(id), text);
      }),
    );
    const next = new Set<string>();
    for (const file of loaded) {
      files.set(file.id, file);
      for (const ref of externalRefs(file.value)) {
        const target = splitRef(file.id, ref).file;
        if (!files.has(target) && !wave.includes(target)) next.add(target);
      }
    }
    wave = [...next];
  }
  const root = files.get(rootId);
  if (!root) throw new Error(`${rootId} was not read`);
  return { root, files, ...(reader.ref ? { ref: reader.ref } : {}) };
}

/** The `$ref` strings of a document that name another file (`./components/errors.yaml#/...`). */
export function externalRefs(node: JsonValue): Set<string> {
  const refs = new Set<string>();
  const visit = (value: JsonValue): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string") {
          if (!child.startsWith("#")) refs.add(child);
        } else visit(child);
      }
    }
  };
  visit(node);
  return refs;
}

/** True when every file of two sets has the same text (nothing to compare). */
export function sameSources(a: SourceSet, b: SourceSet): boolean {
  if (a.files.size !== b.files.size) return false;
  const texts = new Map([...b.files.values()].map((f) => [f.display, f.text]));
  return [...a.files.values()].every((f) => texts.get(f.display) === f.text);
}
