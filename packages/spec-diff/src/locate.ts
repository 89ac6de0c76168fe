/**
 * From a JSON path of the compared document back to the YAML as written: the file, line and
 * column of the node. The walk follows `$ref`s into the file that holds the target (a path
 * through `#/components/schemas/X` or `./components/common.yaml#/...` continues there), and
 * `allOf` members (which the comparison sees merged). When the path leaves the document (a field
 * that only the other side has), the deepest node on the way is the location.
 */
import type { JsonPath } from "./json.js";
import type { PositionNode } from "./positions.js";
import { splitRef, type SourceFile, type SourceSet } from "./sources.js";
import type { Location } from "./types.js";

interface Found {
  file: SourceFile;
  offset: number;
  depth: number;
}

/** Where the node at `path` is written; `exact` is false when only an ancestor was found. */
export function locate(set: SourceSet, path: JsonPath): Location {
  const root = set.root.positions.root;
  const found = root ? walk(set, set.root, root, 0, path, 0, 0) : { file: set.root, offset: 0, depth: 0 };
  const { line, col } = found.file.positions.linePos(found.offset);
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
  raw: PositionNode,
  offset: number,
  path: JsonPath,
  i: number,
  hops: number,
): Found {
  const node = file.positions.resolve(raw);
  const here: Found = { file, offset, depth: i };
  if (i === path.length || hops > 32) return here;
  const segment = String(path[i]);
  if (node.entries) {
    const entry = node.entries.get(segment);
    if (entry) return walk(set, file, entry.value, entry.key, path, i + 1, 0);
    let best = here;
    const ref = node.entries.get("$ref")?.value.value;
    if (typeof ref === "string") {
      const target = resolveRef(set, file, ref);
      if (target) {
        const found = walk(set, target.file, target.node, offset, path, i, hops + 1);
        if (found.depth > best.depth) best = found;
      }
    }
    const allOf = node.entries.get("allOf")?.value;
    const members = allOf ? file.positions.resolve(allOf).items : undefined;
    for (const member of members ?? []) {
      const found = walk(set, file, member, offset, path, i, hops + 1);
      if (found.depth > best.depth) best = found;
    }
    return best;
  }
  if (node.items && /^\d+$/.test(segment)) {
    const item = node.items[Number(segment)];
    if (item) return walk(set, file, item, item.start, path, i + 1, 0);
  }
  return here;
}

function resolveRef(
  set: SourceSet,
  from: SourceFile,
  ref: string,
): { file: SourceFile; node: PositionNode } | undefined {
  const { file: id, pointer } = splitRef(from.id, ref);
  const file = set.files.get(id);
  let node = file?.positions.root;
  if (!file || !node) return undefined;
  for (const segment of pointer) {
    const here: PositionNode = file.positions.resolve(node);
    if (here.entries) node = here.entries.get(segment)?.value;
    else if (here.items) node = here.items[Number(segment)];
    else return undefined;
    if (!node) return undefined;
  }
  return { file, node };
}
