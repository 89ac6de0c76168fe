/**
 * From a JSON path of the compared document back to the YAML as written: the file, line and
 * column of the node. The walk follows `$ref`s into the file that holds the target (a path
 * through `#/components/schemas/X` or `./components/common.yaml#/...` continues there), and
 * `allOf` members (which the comparison sees merged). When the path leaves the document (a field
 * that only the other side has), the deepest node on the way is the location.
 */
import { isAlias, isMap, isScalar, isSeq, type Node } from "yaml";
import type { JsonPath } from "./json.js";
import { splitRef, type SourceFile, type SourceSet } from "./sources.js";
import type { Location } from "./types.js";

interface Found {
  file: SourceFile;
  offset: number;
  depth: number;
}

/** Where the node at `path` is written; `exact` is false when only an ancestor was found. */
export function locate(set: SourceSet, path: JsonPath): Location {
  const root = set.root.document.contents;
  const found = root ? walk(set, set.root, root as Node, 0, path, 0, 0) : { file: set.root, offset: 0, depth: 0 };
  const { line, col } = found.file.lineCounter.linePos(found.offset);
  return {
    file: found.file.display,
    line,
    column: col,
    ...(set.ref ? { ref: set.ref } : {}),
    ...(found.depth < path.length ? { exact: false } : {}),
  };
}

function walk(
  set: SourceSet,
  file: SourceFile,
  raw: Node,
  offset: number,
  path: JsonPath,
  i: number,
  hops: number,
): Found {
  const node = isAlias(raw) ? (raw.resolve(file.document) as Node | undefined) : raw;
  const here: Found = { file, offset, depth: i };
  if (!node || i === path.length || hops > 32) return here;
  const segment = String(path[i]);
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
    if (pair) {
      const keyOffset = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : offset;
      if (!pair.value) return { file, offset: keyOffset, depth: i + 1 };
      return walk(set, file, pair.value as Node, keyOffset, path, i + 1, 0);
    }
    let best = here;
    const ref = node.items.find((p) => isScalar(p.key) && p.key.value === "$ref");
    if (ref && isScalar(ref.value) && typeof ref.value.value === "string") {
      const target = resolveRef(set, file, ref.value.value);
      if (target) {
        const found = walk(set, target.file, target.node, offset, path, i, hops + 1);
        if (found.depth > best.depth) best = found;
      }
    }
    const allOf = node.items.find((p) => isScalar(p.key) && p.key.value === "allOf");
    if (allOf && isSeq(allOf.value)) {
      for (const member of allOf.value.items) {
        const found = walk(set, file, member as Node, offset, path, i, hops + 1);
        if (found.depth > best.depth) best = found;
      }
    }
    return best;
  }
  if (isSeq(node) && /^\d+$/.test(segment)) {
    const item = node.items[Number(segment)] as Node | undefined;
    if (item) return walk(set, file, item, item.range?.[0] ?? offset, path, i + 1, 0);
  }
  return here;
}

function resolveRef(set: SourceSet, from: SourceFile, ref: string): { file: SourceFile; node: Node } | undefined {
  const { file: id, pointer } = splitRef(from.id, ref);
  const file = set.files.get(id);
  let node = file?.document.contents as Node | null | undefined;
  if (!file || !node) return undefined;
  for (const segment of pointer) {
    if (isAlias(node)) node = node.resolve(file.document) as Node | undefined;
    if (isMap(node)) node = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment)?.value as Node;
    else if (isSeq(node)) node = node.items[Number(segment)] as Node;
    else return undefined;
    if (!node) return undefined;
  }
  return { file, node };
}
