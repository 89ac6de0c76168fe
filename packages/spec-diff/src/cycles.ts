/**
 * allof-merge resolves a `$ref` it meets inside its own target (a schema that refers to itself
 * through `allOf`, `Node.parent: {allOf: [{$ref: Node}, {description}]}`) by returning the merged
 * object itself there: its result is then a cyclic object graph, which every walk over it (ours and
 * api-smart-diff's) follows until the stack overflows. `withoutCycles` turns each such back edge
 * into a JSON `$ref` to the place of the object it returns to, so the recursive schema is compared
 * by reference at the point of recursion, as a plain recursive `$ref` is.
 */
import { isObject, type JsonObject, type JsonValue } from "./json.js";

/** A JSON pointer (`#/paths/~1nodes/get`) from the keys of a path. */
function pointer(keys: readonly string[]): string {
  return `#${keys.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")}`;
}

/**
 * The value with every edge back to one of its own ancestors replaced by
 * `{$ref: <pointer to the ancestor>}`, with the ancestor's values of the keys in `keep` (a tag
 * such as its schema name). `base` is the path of `value` in its document, for the pointers. Parts without such an edge are
 * returned as they are (no copy), so a document without cycles comes back unchanged.
 */
export function withoutCycles<T extends JsonValue>(
  value: T,
  options: { base?: readonly string[]; keep?: readonly string[] } = {},
): T {
  const depthOf = new Map<object, number>();
  const keys: string[] = [...(options.base ?? [])];
  const keep = options.keep ?? [];
  const walk = (node: JsonValue): JsonValue => {
    if (typeof node !== "object" || node === null) return node;
    const depth = depthOf.get(node);
    if (depth !== undefined) {
      const ref: JsonObject = { $ref: pointer(keys.slice(0, depth)) };
      if (isObject(node)) for (const key of keep) if (Object.hasOwn(node, key)) ref[key] = node[key] as JsonValue;
      return ref;
    }
    depthOf.set(node, keys.length);
    let copy: JsonValue[] | JsonObject | undefined;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i] as JsonValue;
        keys.push(String(i));
        const done = walk(item);
        keys.pop();
        if (done !== item) {
          copy ??= [...node];
          (copy as JsonValue[])[i] = done;
        }
      }
    } else {
      for (const [key, item] of Object.entries(node)) {
        keys.push(key);
        const done = walk(item);
        keys.pop();
        if (done !== item) {
          copy ??= { ...node };
          (copy as JsonObject)[key] = done;
        }
      }
    }
    depthOf.delete(node);
    return copy ?? node;
  };
  return walk(value) as T;
}
