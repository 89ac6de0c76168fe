/**
 * Prepares two bundled documents for api-smart-diff:
 *
 * - Operations are keyed by their path below the API prefix. Revisions A and B put tracking under
 *   `/2.0/preview/tracker`, C under `/2.0/tracker`; keyed by the full path, every C operation
 *   would be "removed + added". Both prefixes map to the same key (`/experiments/create`), and the
 *   move itself is reported as a change of its own.
 * - `allOf` is merged (allof-merge, the companion library of api-smart-diff by the same author),
 *   so that `{allOf: [{$ref: ExperimentId}, {description}]}` and an inline
 *   `{type: string, description}` compare by content instead of by shape. The siblings of an
 *   `anyOf` / `oneOf` are distributed into its items in the same pass, as api-smart-diff's own
 *   merge step would do at that node: the documents then reach the library with nothing left for
 *   its merge to change, and it never runs (./library.ts).
 * - Every reference to a component schema is tagged with the schema's name (`x-spec-diff-schema`),
 *   so that reports can say `DoubleClause` after the merge has inlined it.
 */
import { merge } from "allof-merge";
import { withoutCycles } from "./cycles.js";
import { isObject, refName, resolvePointer, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";
import { pruneComponents } from "./unchanged.js";

/** The API prefixes that are not part of an operation's identity: `/2.0/tracker`, `/2.0/preview/tracker` (and `mlflow`). */
export const DEFAULT_PREFIX_PATTERN = /^\/\d+\.\d+(?:\/preview)?\/(?:tracker|mlflow)(?=\/)/;

export const SCHEMA_NAME_KEY = "x-spec-diff-schema";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface OperationInfo {
  /** Key used for the comparison: the path below the prefix (`/experiments/create`). */
  key: string;
  method: string;
  /** The path as written in the document. */
  path: string;
  operationId?: string;
  /** Position in the document, to keep the report in the document's order. */
  order: number;
}

export interface NormalisedDocument {
  document: OpenApiDocument;
  /** `${method} ${key}` -> operation. */
  operations: Map<string, OperationInfo>;
  /** Key of a path (`/experiments/create`) -> the path as written (`/2.0/tracker/experiments/create`). */
  originalPaths: Map<string, string>;
}

export interface NormaliseOptions {
  prefixPattern?: RegExp;
}

/** For each path as written: how many paths of the document share its key below the prefix. */
export function prefixKeyCounts(
  document: OpenApiDocument,
  prefix: RegExp = DEFAULT_PREFIX_PATTERN,
): Map<string, number> {
  const paths = isObject(document.paths) ? Object.keys(document.paths) : [];
  const keyOf = (original: string) => original.replace(prefix, "") || original;
  const count = new Map<string, number>();
  for (const original of paths) count.set(keyOf(original), (count.get(keyOf(original)) ?? 0) + 1);
  return new Map(paths.map((original) => [original, count.get(keyOf(original)) ?? 0]));
}

export function operationKey(method: string, key: string): string {
  return `${method.toUpperCase()} ${key}`;
}

/** A document as `keyOperations` gives it: keyed and tagged, its `allOf`s not merged yet. */
export type KeyedDocument = NormalisedDocument;

/** Keys the operations of a document and merges its `allOf`s: `keyOperations`, then `mergeSchemas`. */
export function normalise(source: OpenApiDocument, options: NormaliseOptions = {}): NormalisedDocument {
  return mergeSchemas(keyOperations(source, options));
}

/**
 * A copy of the document with every schema reference tagged and its paths keyed below the API
 * prefix, and its operations; the allOf merge is the next step (`mergeSchemas`).
 */
export function keyOperations(source: OpenApiDocument, options: NormaliseOptions = {}): KeyedDocument {
  const prefix = options.prefixPattern ?? DEFAULT_PREFIX_PATTERN;
  // A copy with every schema reference tagged: the source is not modified.
  const document = withSchemaNames(source) as OpenApiDocument;
  const paths = isObject(document.paths) ? document.paths : {};

  // Key every path by its part below the prefix, unless two paths of this document would collide.
  const keyOf = new Map<string, string>();
  const count = new Map<string, number>();
  for (const original of Object.keys(paths)) {
    const key = original.replace(prefix, "") || original;
    keyOf.set(original, key);
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const rekeyed: JsonObject = {};
  const operations = new Map<string, OperationInfo>();
  const originalPaths = new Map<string, string>();
  let order = 0;
  for (const [original, item] of Object.entries(paths)) {
    const stripped = keyOf.get(original) as string;
    const key = count.get(stripped) === 1 ? stripped : original;
    rekeyed[key] = item;
    originalPaths.set(key, original);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      operations.set(operationKey(method, key), {
        key,
        method,
        path: original,
        ...(typeof operation.operationId === "string" ? { operationId: operation.operationId } : {}),
        order: order++,
      });
    }
  }
  if (isObject(document.paths)) document.paths = rekeyed;
  return { document, operations, originalPaths };
}

/**
 * Merges the `allOf`s of a keyed document (allof-merge), except in the operations for which
 * `compared` is false: an operation that the other document does not have is reported as added or
 * removed, as a whole, and what it holds is never compared. Those operations are left out of the
 * merge, with the components only they use, and put back as they were; on revision B -> C (26
 * operations added) that is most of the merge's work.
 */
export function mergeSchemas(
  keyed: KeyedDocument,
  compared: (operation: string) => boolean = () => true,
): NormalisedDocument {
  const { document, operations, originalPaths } = keyed;
  const aside = new Map<string, { item: JsonObject; methods: Set<string> }>();
  let input = document;
  if (isObject(document.paths)) {
    const paths: JsonObject = {};
    for (const [key, item] of Object.entries(document.paths)) {
      const methods = new Set<string>(
        isObject(item)
          ? HTTP_METHODS.filter((method) => isObject(item[method]) && !compared(operationKey(method, key)))
          : [],
      );
      if (!isObject(item) || methods.size === 0) {
        paths[key] = item;
        continue;
      }
      aside.set(key, { item, methods });
      const kept: JsonObject = {};
      for (const [k, value] of Object.entries(item)) if (!methods.has(k)) kept[k] = value;
      paths[key] = kept;
    }
    if (aside.size > 0) input = { ...document, paths };
  }

  const merged = mergeUsedComponents(input);
  const result = inlinePathReferences(merged, merged, new Set()) as OpenApiDocument;
  if (aside.size > 0 && isObject(result.paths)) {
    const paths = result.paths;
    for (const [key, { item, methods }] of aside) {
      const done = paths[key];
      const back: JsonObject = {};
      for (const [k, value] of Object.entries(item)) {
        if (methods.has(k)) back[k] = value;
        else if (isObject(done) && Object.hasOwn(done, k)) back[k] = done[k] as JsonValue;
      }
      if (isObject(done)) for (const [k, value] of Object.entries(done)) if (!Object.hasOwn(back, k)) back[k] = value;
      paths[key] = back;
    }
  }
  return { document: result, operations, originalPaths };
}

/**
 * The document with its `allOf`s merged (allof-merge), and of its components only those that the
 * rest of the merged document still references. Most component schemas are used through `allOf`
 * (`{allOf: [{$ref: ExperimentId}, {description}]}`), which the merge inlines where they are used:
 * merging them in `components` as well was most of the merge's work, for entries that nothing reads
 * (revision C: 3 of its 109 schemas are still referenced). So the rest of the document is merged
 * first, then the components it references (transitively), each with `$ref`s resolved in the whole
 * document as one merge of everything would.
 */
function mergeUsedComponents(document: OpenApiDocument): OpenApiDocument {
  const options = { mergeRefSibling: true, mergeCombinarySibling: true, source: document };
  const { components, ...rest } = document;
  const mergedRest = withoutCycles(merge(rest, options) as JsonValue, { keep: [SCHEMA_NAME_KEY] });
  if (!isObject(mergedRest)) throw new Error("allof-merge returned no document");
  if (!isObject(components)) return mergedRest;
  const used = pruneComponents({ ...mergedRest, components }).components;
  const mergedComponents = withoutCycles(
    (merge({ openapi: document.openapi ?? null, components: used ?? {} }, options) as JsonObject)
      .components as JsonValue,
    { base: ["components"], keep: [SCHEMA_NAME_KEY] },
  );
  // The document's own order of keys.
  const out: JsonObject = {};
  for (const key of Object.keys(document))
    out[key] = key === "components" ? mergedComponents : (mergedRest[key] as JsonValue);
  return out;
}

/**
 * allof-merge writes a schema it meets a second time as a `$ref` to the place where it merged it
 * first (`#/paths/~1experiments~1list/get/...`). Such references are an artefact of the merge, and
 * would show up as differences where one side has one and the other not: they are inlined again.
 */
function inlinePathReferences(node: JsonValue, root: JsonObject, active: Set<string>): JsonValue {
  if (Array.isArray(node)) return node.map((item) => inlinePathReferences(item, root, active));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string" && ref.startsWith("#/paths/") && !active.has(ref)) {
    const target = resolvePointer(root, ref);
    if (target !== undefined) {
      const { $ref: _ref, ...siblings } = node;
      active.add(ref);
      const inlined = inlinePathReferences(isObject(target) ? { ...target, ...siblings } : target, root, active);
      active.delete(ref);
      return inlined;
    }
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = inlinePathReferences(value, root, active);
  return out;
}

/** A copy of `node` with `x-spec-diff-schema: <Name>` next to every `$ref` to `#/components/schemas/<Name>`. */
function withSchemaNames(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(withSchemaNames);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = withSchemaNames(value);
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/")) {
    out[SCHEMA_NAME_KEY] = refName(node.$ref);
  }
  return out;
}
