/** JSON values as parsed from an OpenAPI document, and small helpers to read them. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
export type JsonPath = ReadonlyArray<string | number>;

/** An OpenAPI document (3.0 or 3.1), bundled: every `$ref` points inside the document. */
export type OpenApiDocument = JsonObject;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows an internal JSON pointer (`#/components/schemas/X`). */
export function resolvePointer(root: JsonValue, pointer: string): JsonValue | undefined {
  if (!pointer.startsWith("#")) return undefined;
  const segments = pointer
    .slice(1)
    .split("/")
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: JsonValue | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * Reads the value at `path`, following internal `$ref`s on the way when a key is not on the node
 * itself (the way api-smart-diff reports paths through references).
 */
export function getAt(root: JsonValue, path: JsonPath): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  const seen = new Set<JsonValue>();
  for (const key of path) {
    node = deref(root, node, seen);
    if (Array.isArray(node)) node = typeof key === "number" || /^\d+$/.test(key) ? node[Number(key)] : undefined;
    else if (isObject(node)) node = Object.hasOwn(node, String(key)) ? node[String(key)] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return deref(root, node, seen);
}

/** Follows `$ref`s until a node that is not a reference; siblings of a `$ref` (OpenAPI 3.1) are kept. */
export function deref(
  root: JsonValue,
  node: JsonValue | undefined,
  seen: Set<JsonValue> = new Set(),
): JsonValue | undefined {
  let current = node;
  while (isObject(current) && typeof current.$ref === "string" && !seen.has(current)) {
    seen.add(current);
    const target = resolvePointer(root, current.$ref);
    if (target === undefined) return current;
    // A $ref with siblings (OpenAPI 3.1): the siblings win, the target fills in the rest.
    const { $ref: _ref, ...siblings } = current;
    current = isObject(target) && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
  }
  return current;
}

/** The component name a `$ref` points to (`#/components/schemas/DoubleClause` -> `DoubleClause`). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}
