/**
 * Bundling: one document whose `$ref`s all point inside it, as `redocly bundle` makes it, but
 * without loading Redocly (whose import alone takes longer than the whole diff). Every `$ref` to
 * another file becomes a `$ref` to `#/components/<kind>/<name>`:
 *
 * - a pointer of the form `#/components/<kind>/<name>` (the convention of spec/components/*.yaml)
 *   keeps its kind and name;
 * - any other pointer takes its kind from where the `$ref` stands (a schema, a parameter, a
 *   response, ...) and its name from the pointer's last segment (or the file's name);
 * - a name already taken by another target gets a suffix (`Name-2`); a component of the root
 *   document that is only a `$ref` to another file takes that file's content under its own name.
 *
 * api-smart-diff follows the internal references; ./locate.ts follows the original ones.
 */
import { isObject, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";
import { splitRef, type SourceSet } from "./sources.js";

const SCHEMA_PARENTS = new Set([
  "schema",
  "items",
  "not",
  "additionalProperties",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
const SCHEMA_GRANDPARENTS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
  "schemas",
  "dependentSchemas",
]);
const GRANDPARENT_KINDS: Record<string, string> = {
  parameters: "parameters",
  responses: "responses",
  requestBodies: "requestBodies",
  headers: "headers",
  examples: "examples",
  links: "links",
  callbacks: "callbacks",
  securitySchemes: "securitySchemes",
  pathItems: "pathItems",
  paths: "pathItems",
};

/** The components kind a `$ref` standing under these keys points to. */
function kindAt(parent: string | undefined, grandparent: string | undefined, inherited: string): string {
  if (parent !== undefined && SCHEMA_PARENTS.has(parent)) return "schemas";
  if (grandparent !== undefined && SCHEMA_GRANDPARENTS.has(grandparent)) return "schemas";
  if (parent === "requestBody") return "requestBodies";
  if (grandparent !== undefined && GRANDPARENT_KINDS[grandparent]) return GRANDPARENT_KINDS[grandparent];
  return inherited;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function valueAt(root: JsonValue, pointer: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of pointer) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

export function bundleSources(set: SourceSet): OpenApiDocument {
  const rootId = set.root.id;
  const rootValue = set.root.value;
  if (!isObject(rootValue) || (typeof rootValue.openapi !== "string" && typeof rootValue.swagger !== "string")) {
    throw new Error(`${set.root.display} is not an OpenAPI document (no \`openapi\` field)`);
  }
  const rootComponents = isObject(rootValue.components) ? rootValue.components : {};
  /** `file#pointer` -> internal `$ref`. */
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  /** kind -> name -> bundled content (filled after the name is reserved, so cycles terminate). */
  const added = new Map<string, Map<string, JsonValue>>();
  const adopted: Array<{ kind: string; name: string; file: string; pointer: string[] }> = [];

  for (const [kind, entries] of Object.entries(rootComponents)) {
    if (!isObject(entries)) continue;
    for (const [name, entry] of Object.entries(entries)) {
      taken.add(`${kind}/${name}`);
      if (isObject(entry) && typeof entry.$ref === "string" && Object.keys(entry).length === 1) {
        const { file, pointer } = splitRef(rootId, entry.$ref);
        const key = `${file}#/${pointer.join("/")}`;
        if (file !== rootId && !assigned.has(key)) {
          assigned.set(key, `#/components/${escapePointer(kind)}/${escapePointer(name)}`);
          adopted.push({ kind, name, file, pointer });
        }
      }
    }
  }

  const target = (file: string, pointer: string[]): JsonValue => {
    const source = set.files.get(file);
    const value = source ? valueAt(source.value, pointer) : undefined;
    if (value === undefined) {
      throw new Error(`$ref ${source?.display ?? file}#/${pointer.join("/")} points to nothing`);
    }
    return value;
  };

  const componentFor = (file: string, pointer: string[], kindHint: string): string => {
    const key = `${file}#/${pointer.join("/")}`;
    const known = assigned.get(key);
    if (known) return known;
    const conventional = pointer.length === 3 && pointer[0] === "components";
    const kind = conventional ? pointer[1] : kindHint;
    const base =
      (conventional ? pointer[2] : pointer[pointer.length - 1]) ??
      (file.split("/").pop() ?? "component").replace(/\.(ya?ml|json)$/i, "");
    let name = base;
    for (let n = 2; taken.has(`${kind}/${name}`); n++) name = `${base}-${n}`;
    taken.add(`${kind}/${name}`);
    const ref = `#/components/${escapePointer(kind)}/${escapePointer(name)}`;
    assigned.set(key, ref);
    const entries = added.get(kind) ?? new Map<string, JsonValue>();
    added.set(kind, entries);
    entries.set(name, null);
    entries.set(name, rewrite(target(file, pointer), file, kind, undefined, undefined));
    return ref;
  };

  /** `parent` and `grandparent`: the two keys (or indexes) above `node`, which tell the kind of a `$ref` in it. */
  const rewrite = (
    node: JsonValue,
    file: string,
    kind: string,
    parent: string | undefined,
    grandparent: string | undefined,
  ): JsonValue => {
    if (Array.isArray(node)) return node.map((item, i) => rewrite(item, file, kind, String(i), parent));
    if (!isObject(node)) return node;
    const here = kindAt(parent, grandparent, kind);
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const { file: refFile, pointer } = splitRef(file, value);
        out.$ref =
          refFile === rootId
            ? `#/${pointer.map(escapePointer).join("/")}`.replace(/\/$/, "")
            : componentFor(refFile, pointer, here);
      } else out[key] = rewrite(value, file, here, key, parent);
    }
    return out;
  };

  const bundled = rewrite(rootValue, rootId, "schemas", undefined, undefined) as JsonObject;
  for (const { kind, name, file, pointer } of adopted) {
    const entries = added.get(kind) ?? new Map<string, JsonValue>();
    added.set(kind, entries);
    entries.set(name, rewrite(target(file, pointer), file, kind, undefined, undefined));
  }
  if (added.size > 0) {
    const components: JsonObject = isObject(bundled.components) ? bundled.components : {};
    for (const [kind, entries] of added) {
      const group: JsonObject = isObject(components[kind]) ? components[kind] : {};
      for (const [name, value] of entries) group[name] = value;
      components[kind] = group;
    }
    bundled.components = components;
  }
  return bundled;
}
