/**
 * A shortcut before the library's comparison: path items that are the same on both sides, with
 * every `$ref` they use followed, cannot hold a change, and are left out of the comparison. On a
 * review of one changed field in a 3,000-line spec this leaves the library a few operations
 * instead of all of them. The documents passed in are not modified.
 */
import { equality } from "./equality.js";
import { isObject, resolvePointer, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";

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
