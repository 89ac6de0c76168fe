/**
 * A shortcut before the library's comparison: path items that are the same on both sides, with
 * every `$ref` they use followed, cannot hold a change, and are left out of the comparison. On a
 * review of one changed field in a 3,000-line spec this leaves the library a few operations
 * instead of all of them. The documents passed in are not modified.
 */
import { isObject, resolvePointer, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";

/**
 * Deep equality of a node of `before` with a node of `after`, where an internal `$ref` on each
 * side stands for its target: two references are equal when their targets are (memoised per pair
 * of references). A pair met again while its own targets are being compared (a recursive schema)
 * is assumed equal, so the answer rests on the rest of the two nodes; an answer "equal" that
 * leaned on the assumption of an outer pair is not memoised, as that pair may still differ.
 */
function equality(before: JsonValue, after: JsonValue): (a: JsonValue, b: JsonValue) => boolean {
  const memo = new Map<string, boolean>();
  /** Pairs being compared, with their depth. */
  const active = new Map<string, number>();
  /** The lowest depth of an active pair assumed equal since the innermost pair began. */
  let lowestAssumed = Number.POSITIVE_INFINITY;
  const refsEqual = (refA: string, refB: string): boolean => {
    if (!refA.startsWith("#") || !refB.startsWith("#")) return refA === refB;
    const pair = `${refA}\u0000${refB}`;
    const known = memo.get(pair);
    if (known !== undefined) return known;
    const depth = active.get(pair);
    if (depth !== undefined) {
      lowestAssumed = Math.min(lowestAssumed, depth);
      return true;
    }
    const targetA = resolvePointer(before, refA);
    const targetB = resolvePointer(after, refB);
    if (targetA === undefined || targetB === undefined) return refA === refB && targetA === targetB;
    const own = active.size;
    const outer = lowestAssumed;
    lowestAssumed = Number.POSITIVE_INFINITY;
    active.set(pair, own);
    const same = equal(targetA, targetB);
    active.delete(pair);
    if (!same || lowestAssumed >= own) memo.set(pair, same);
    lowestAssumed = Math.min(outer, lowestAssumed >= own ? Number.POSITIVE_INFINITY : lowestAssumed);
    return same;
  };
  const equal = (a: JsonValue, b: JsonValue): boolean => {
    if (a === b) return true;
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i] as JsonValue, b[i] as JsonValue)) return false;
      return true;
    }
    if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(b, key)) return false;
      const va = a[key] as JsonValue;
      const vb = b[key] as JsonValue;
      if (key === "$ref" && typeof va === "string" && typeof vb === "string") {
        if (!refsEqual(va, vb)) return false;
      } else if (!equal(va, vb)) return false;
    }
    return true;
  };
  return equal;
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
  const equal = equality(before, after);
  const droppable = options.droppable ?? (() => true);
  const unchanged = new Set<string>();
  for (const [key, item] of Object.entries(before.paths)) {
    if (Object.hasOwn(after.paths, key) && droppable(key) && equal(item, after.paths[key] as JsonValue))
      unchanged.add(key);
  }
  const keep = (paths: JsonObject): JsonObject => {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(paths)) if (!unchanged.has(key)) out[key] = item;
    return out;
  };
  const result = { before: { ...before, paths: keep(before.paths) }, after: { ...after, paths: keep(after.paths) } };
  return options.prune ? { before: pruneComponents(result.before), after: pruneComponents(result.after) } : result;
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
