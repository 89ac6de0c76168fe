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

/** Copies of the two documents without the path items that are equal on both sides. */
export function withoutUnchangedPaths(
  before: OpenApiDocument,
  after: OpenApiDocument,
): { before: OpenApiDocument; after: OpenApiDocument } {
  if (!isObject(before.paths) || !isObject(after.paths)) return { before, after };
  const hashBefore = hasher(before);
  const hashAfter = hasher(after);
  const keep = (paths: JsonObject, other: JsonObject, mine: typeof hashBefore, theirs: typeof hashAfter) => {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(paths)) {
      if (!Object.hasOwn(other, key) || mine(item) !== theirs(other[key])) out[key] = item;
    }
    return out;
  };
  return {
    before: { ...before, paths: keep(before.paths, after.paths, hashBefore, hashAfter) },
    after: { ...after, paths: keep(after.paths, before.paths, hashAfter, hashBefore) },
  };
}
