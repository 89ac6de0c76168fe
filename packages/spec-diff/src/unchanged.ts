/**
 * A shortcut before the library's comparison: path items that are the same on both sides, with
 * every `$ref` they use followed, cannot hold a change, and are left out of the comparison. On a
 * review of one changed field in a 3,000-line spec this leaves the library a few operations
 * instead of all of them. The documents passed in are not modified.
 */
import { createHash } from "node:crypto";
import { isObject, resolvePointer, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";

/** Hashes a node with each internal `$ref` replaced by the hash of its target (memoised per target). */
function hasher(root: JsonValue): (node: JsonValue) => string {
  const memo = new Map<string, string>();
  const active = new Set<string>();
  const serialise = (node: JsonValue): string => {
    if (Array.isArray(node)) return `[${node.map(serialise).join(",")}]`;
    if (!isObject(node)) return JSON.stringify(node);
    const parts: string[] = [];
    for (const [key, value] of Object.entries(node)) {
      parts.push(
        key === "$ref" && typeof value === "string"
          ? `"$ref":${JSON.stringify(refHash(value))}`
          : `${JSON.stringify(key)}:${serialise(value)}`,
      );
    }
    return `{${parts.join(",")}}`;
  };
  const refHash = (ref: string): string => {
    const known = memo.get(ref);
    if (known) return known;
    // A reference met again while its own target is being hashed (a recursive schema): its name stands for it.
    if (active.has(ref) || !ref.startsWith("#")) return ref;
    const target = resolvePointer(root, ref);
    if (target === undefined) return ref;
    active.add(ref);
    const hash = createHash("sha1").update(serialise(target)).digest("base64");
    active.delete(ref);
    memo.set(ref, hash);
    return hash;
  };
  return (node) => createHash("sha1").update(serialise(node)).digest("base64");
}

/**
 * Copies of the two documents without the path items that are equal on both sides (and that
 * `droppable` allows to drop), and, with `prune`, without the components that the remaining
 * document no longer reaches.
 */
export function withoutUnchangedPaths(
  before: OpenApiDocument,
  after: OpenApiDocument,
  options: { droppable?: (path: string) => boolean; prune?: boolean } = {},
): { before: OpenApiDocument; after: OpenApiDocument } {
  if (!isObject(before.paths) || !isObject(after.paths)) return { before, after };
  const hashBefore = hasher(before);
  const hashAfter = hasher(after);
  const droppable = options.droppable ?? (() => true);
  const keep = (paths: JsonObject, other: JsonObject, mine: typeof hashBefore, theirs: typeof hashAfter) => {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(paths)) {
      if (!Object.hasOwn(other, key) || !droppable(key) || mine(item) !== theirs(other[key])) out[key] = item;
    }
    return out;
  };
  if (options.prune) {
    return {
      before: pruneComponents({ ...before, paths: keep(before.paths, after.paths, hashBefore, hashAfter) }),
      after: pruneComponents({ ...after, paths: keep(after.paths, before.paths, hashAfter, hashBefore) }),
    };
  }
  return {
    before: { ...before, paths: keep(before.paths, after.paths, hashBefore, hashAfter) },
    after: { ...after, paths: keep(after.paths, before.paths, hashAfter, hashBefore) },
  };
}

/**
 * A copy of the document whose components hold only the entries reached by `$ref`s from the rest
 * of the document (transitively), and the security schemes (named, not referenced). Changes under
 * `components` are not reported on their own, so the others cannot change the report.
 */
export function pruneComponents(document: OpenApiDocument): OpenApiDocument {
  if (!isObject(document.components)) return document;
  const reached = new Set<string>();
  const visit = (node: JsonValue): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/")) {
        const entry = value.split("/").slice(0, 4).join("/");
        if (!reached.has(entry)) {
          reached.add(entry);
          const target = resolvePointer(document, entry);
          if (target !== undefined) visit(target);
        }
      } else visit(value);
    }
  };
  const { components, ...rest } = document;
  visit(rest);
  const kept: JsonObject = {};
  for (const [kind, entries] of Object.entries(components)) {
    if (kind === "securitySchemes" || !isObject(entries)) {
      kept[kind] = entries;
      continue;
    }
    const group: JsonObject = {};
    for (const [name, value] of Object.entries(entries)) {
      const pointer = `#/components/${kind}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (reached.has(pointer)) group[name] = value;
    }
    kept[kind] = group;
  }
  return { ...rest, components: kept };
}
