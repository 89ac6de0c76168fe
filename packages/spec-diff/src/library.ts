/**
 * The call of api-smart-diff, with its OpenAPI 3 rules adjusted so that it computes the same diffs
 * in less time:
 *
 * - `components` is not crawled: changes there are reported where the operations use them, and
 *   `$ref`s into it are still followed.
 * - No change descriptions are written (never read here).
 * - The rules of response schemas (the request rules with the classification reversed) are
 *   reversed lazily and once per rules object, where the library deep-copies the whole rules tree
 *   again at every schema node it visits; on a response of a few hundred nodes that copying was
 *   most of the comparison.
 * - Subtrees that are equal on both sides (their `$ref`s followed) are not walked: on a review of
 *   one changed field, walking them was nearly all of the library's work.
 * - The library merges `allOf` at every schema node it visits, each time over the whole subtree
 *   (most of its remaining work on revision B -> C). The documents come here merged already, the
 *   siblings of `anyOf` / `oneOf` distributed into their items (./normalise.ts), so a subtree
 *   without `allOf`, and without `$ref`, `anyOf` or `oneOf` beside other keys (what the merge would
 *   change), is passed on as it is; the others (a `$ref` with siblings, as where a recursive
 *   schema loops back, ./cycles.ts) are merged as before.
 * - Content types are paired exactly before wildcards (./media-types.ts), so that an unchanged
 *   `*` + `/` + `*` beside other types is not reported as removed and added.
 */
import {
  allBreaking,
  apiCompare,
  type CompareResolver,
  type CompareRules,
  type CompareTransformResolver,
  compareOpenApi,
  type Diff,
  discoverCompareEngine,
  isResponseSchema,
  jsonSchemaMappingResolver,
  jsonSchemaMergeAllOf,
  openApiSchemaRules,
  openapi3Rules,
  reverseClassifyRuleTransformer,
} from "api-smart-diff";
import { equality } from "./equality.js";
import type { JsonValue, OpenApiDocument } from "./json.js";
import { mapMediaTypes } from "./media-types.js";

type RuleFactory = (...args: unknown[]) => unknown;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A change of one rules object; its `/...` children are left to `transformRules`. Its result must
 * depend on the object's own entries only (not on which object it is).
 */
type RulesStep = (rules: Record<string, unknown>) => Record<string, unknown>;

/** Whether two rules objects have the same keys in the same order, with the very same values. */
function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== other[i] || a[key] !== b[key]) return false;
  }
  return true;
}

/**
 * A lazy transformation of a rules tree: `transform` applied to every rules object met in a
 * comparison (the objects below keys `/...`, and the results of rule functions), once per object.
 * Several steps go into one `transform` rather than one `transformRules` each: the library calls a
 * rule function at every node it visits, and each layer would copy its fresh result again.
 * Most rule functions return a fresh copy of the same entries at every call (`{...schemaRules, $,
 * annotate}`): a result with the same entries as the function's previous one gets the previous
 * result's transformation, which then is the same by the contract of `RulesStep`.
 */
function transformRules(transform: RulesStep): (rules: unknown) => unknown {
  const memo = new WeakMap<object, unknown>();
  const wrap = (rules: RuleFactory): RuleFactory => {
    let lastInput: Record<string, unknown> | undefined;
    let lastOutput: unknown;
    return (...args: unknown[]) => {
      const result = rules(...args);
      if (!isRecord(result)) return apply(result);
      if (lastInput !== undefined && sameEntries(result, lastInput)) return lastOutput;
      lastOutput = apply(result);
      lastInput = result;
      return lastOutput;
    };
  };
  const apply = (rules: unknown): unknown => {
    if (typeof rules !== "function" && !isRecord(rules)) return rules;
    const known = memo.get(rules);
    if (known !== undefined) return known;
    if (typeof rules === "function") {
      const wrapped = wrap(rules as RuleFactory);
      memo.set(rules, wrapped);
      return wrapped;
    }
    const node = transform(rules);
    const out: Record<string, unknown> = {};
    memo.set(rules, out);
    for (const [key, value] of Object.entries(node)) {
      out[key] = key.startsWith("/") && (typeof value === "function" || isRecord(value)) ? apply(value) : value;
    }
    return out;
  };
  return apply;
}

/**
 * The rules with every classification reversed, as the library's `transformComapreRules(rules,
 * reverseClassifyRuleTransformer)` gives them, computed once per rules object.
 */
function reverser(): (rules: unknown) => unknown {
  return transformRules((rules) => reverseClassifyRuleTransformer(rules as CompareRules) as Record<string, unknown>);
}

/**
 * The rules with a first step at every node: two values that are equal (./equality.ts, their
 * `$ref`s followed in the two documents) hold no difference, and are neither transformed nor
 * walked. The library would transform them (its schema rules merge `allOf` at every schema node it
 * visits, the whole subtree each time) and walk them node by node, which on a review of one changed
 * field is nearly all of its work. A node whose values differ keeps the rules' own transforms and
 * comparison. The library's transforms treat the two sides alike, so equal values stay equal.
 */
function skippingEqual(before: OpenApiDocument, after: OpenApiDocument): RulesStep {
  const equal = equality(before, after, { unresolved: "differ" });
  const same = (x: unknown, y: unknown) => equal(x as JsonValue, y as JsonValue);
  return (rules) => {
    const ownCompare = rules.compare as CompareResolver | undefined;
    const compare: CompareResolver = (context) =>
      same(context.before.value, context.after.value)
        ? { diffs: [], merged: context.after.value }
        : ownCompare?.(context);
    const ownTransforms = rules.transform as CompareTransformResolver[] | undefined;
    if (!ownTransforms) return { ...rules, compare };
    const transform: CompareTransformResolver = (x, y) => {
      if (same(x, y)) return [x, y];
      let values: [unknown, unknown] = [x, y];
      for (const step of ownTransforms) values = step(values[0], values[1]);
      return values;
    };
    return { ...rules, compare, transform: [transform] };
  };
}

/**
 * Whether allof-merge, as the library calls it, would change nothing in a value: no `allOf`, and
 * no `$ref`, `anyOf` or `oneOf` with siblings in it (at any depth; memoised per object, the
 * documents are not modified).
 */
function mergeStable(): (value: unknown) => boolean {
  const memo = new WeakMap<object, boolean>();
  const stable = (value: unknown): boolean => {
    if (typeof value !== "object" || value === null) return true;
    const known = memo.get(value);
    if (known !== undefined) return known;
    memo.set(value, false); // until known: a cycle back to it counts as needing the merge (the safe side)
    let result: boolean;
    if (Array.isArray(value)) result = value.every(stable);
    else {
      const node = value as Record<string, unknown>;
      // The merge distributes the siblings of `anyOf` / `oneOf` into their items, and resolves a
      // `$ref` that has siblings: alone, they stay as they are.
      const keys = Object.keys(node);
      result =
        !("allOf" in node) &&
        !(("$ref" in node || "anyOf" in node || "oneOf" in node) && keys.length > 1) &&
        Object.values(node).every(stable);
    }
    memo.set(value, result);
    return result;
  };
  return stable;
}

/**
 * The library's allOf merge step (last of every schema's transforms, as its rules without
 * `notMergeAllOf` have it), skipped where it would change nothing (`mergeStable`).
 */
function mergingAllOf(): RulesStep {
  const merge = jsonSchemaMergeAllOf("2020-12");
  const stable = mergeStable();
  const step: CompareTransformResolver = (x, y) => (stable(x) && stable(y) ? [x, y] : merge(x, y));
  return (rules) =>
    rules.mapping === jsonSchemaMappingResolver
      ? { ...rules, transform: [...((rules.transform as CompareTransformResolver[] | undefined) ?? []), step] }
      : rules;
}

function child(rules: unknown, ...keys: string[]): Record<string, unknown> {
  let node = rules;
  for (const key of keys) {
    if (!isRecord(node) || !isRecord(node[key])) throw new Error(`api-smart-diff's rules have no ${keys.join("")}`);
    node = node[key];
  }
  return node as Record<string, unknown>;
}

/** The library's OpenAPI 3 rules with the changes above. */
function openApiRules(before: OpenApiDocument, after: OpenApiDocument): CompareRules {
  // Without the library's own allOf merge: mergingAllOf puts it back where it can change something.
  const rules = openapi3Rules({ notMergeAllOf: true }) as Record<string, unknown>;
  // The media type rules, shared by request bodies and responses: their schema rules depend on the path.
  // A request schema keeps the library's own rules (and their cache, shared with the parameters).
  // One content rules object serves request bodies and responses.
  const content = child(rules, "/paths", "/*", "/*", "/requestBody", "/content");
  content.mapping = mapMediaTypes;
  const mediaType = child(content, "/*");
  const own = mediaType["/schema"];
  if (typeof own !== "function") throw new Error("api-smart-diff's media type rules have no /schema");
  // One rules object for every response schema, so that the rules' transformations (skippingEqual)
  // are worked out once for it rather than at every response.
  const responseSchema = {
    ...(reverser()(openApiSchemaRules({ notMergeAllOf: true })) as CompareRules),
    $: allBreaking,
  };
  mediaType["/schema"] = (context: { path: Array<string | number> }): unknown =>
    isResponseSchema(context.path) ? responseSchema : (own as RuleFactory)(context);
  // Both steps in one pass over the rules (one copy of each rules object met, not one per step).
  const withMerge = mergingAllOf();
  const withSkip = skippingEqual(before, after);
  return transformRules((node) => withSkip(withMerge(node)))({
    ...rules,
    "/components": { skip: true },
  }) as CompareRules;
}

/** api-smart-diff's diffs of two documents (OpenAPI 3 with the rules above, anything else as it comes). */
export function libraryDiffs(before: OpenApiDocument, after: OpenApiDocument): Diff[] {
  if (discoverCompareEngine(before) !== compareOpenApi) return apiCompare(before, after).diffs;
  return compareOpenApi(before, after, { rules: openApiRules(before, after), annotateHook: () => "" }).diffs;
}
