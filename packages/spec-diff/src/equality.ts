/**
 * Deep equality of a node of one document with a node of another, where an internal `$ref` on
 * each side stands for its target: two references are equal when their targets are. Used to leave
 * out what cannot hold a change: equal path items (./unchanged.ts) and, inside the library's
 * comparison, equal subtrees (./library.ts).
 */
import { isObject, resolvePointer, type JsonValue } from "./json.js";

export interface EqualityOptions {
  /**
   * Two references whose targets cannot be resolved here: `same-ref` (the default) takes them as
   * equal when they are the same string; `differ` takes them as different, for a caller that must
   * then compare them itself.
   */
  unresolved?: "same-ref" | "differ";
}

/**
 * Equality of a node of `before` with a node of `after`, memoised per pair of references and per
 * pair of objects. A pair of references met again while its own targets are being compared (a
 * recursive schema) is assumed equal, so the answer rests on the rest of the two nodes; an answer
 * "equal" that leaned on the assumption of an outer pair is not memoised, as that pair may still
 * differ.
 */
export function equality(
  before: JsonValue,
  after: JsonValue,
  options: EqualityOptions = {},
): (a: JsonValue, b: JsonValue) => boolean {
  const unresolvedDiffer = options.unresolved === "differ";
  const refMemo = new Map<string, boolean>();
  const objectMemo = new WeakMap<object, WeakMap<object, boolean>>();
  /** Pairs of references being compared, with their depth. */
  const active = new Map<string, number>();
  /** The lowest depth of an active pair assumed equal since the innermost comparison began. */
  let lowestAssumed = Number.POSITIVE_INFINITY;

  /** Runs `compare` as one step whose answer is memoised unless it leaned on an outer pair. */
  const step = (compare: () => boolean, remember: (same: boolean) => void): boolean => {
    const own = active.size;
    const outer = lowestAssumed;
    lowestAssumed = Number.POSITIVE_INFINITY;
    const same = compare();
    if (!same || lowestAssumed >= own) remember(same);
    lowestAssumed = Math.min(outer, lowestAssumed >= own ? Number.POSITIVE_INFINITY : lowestAssumed);
    return same;
  };

  const refsEqual = (refA: string, refB: string): boolean => {
    if (!refA.startsWith("#") || !refB.startsWith("#")) return refA === refB;
    const pair = `${refA}\u0000${refB}`;
    const known = refMemo.get(pair);
    if (known !== undefined) return known;
    const depth = active.get(pair);
    if (depth !== undefined) {
      lowestAssumed = Math.min(lowestAssumed, depth);
      return true;
    }
    const targetA = resolvePointer(before, refA);
    const targetB = resolvePointer(after, refB);
    if (targetA === undefined || targetB === undefined)
      return !unresolvedDiffer && refA === refB && targetA === targetB;
    const own = active.size;
    return step(
      () => {
        active.set(pair, own);
        const same = equal(targetA, targetB);
        active.delete(pair);
        return same;
      },
      (same) => refMemo.set(pair, same),
    );
  };

  const objectsEqual = (a: JsonValue[] | { [key: string]: JsonValue }, b: JsonValue): boolean => {
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i] as JsonValue, b[i] as JsonValue)) return false;
      return true;
    }
    if (!isObject(b)) return false;
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

  const equal = (a: JsonValue, b: JsonValue): boolean => {
    if (a === b) return true;
    if (a === null || typeof a !== "object" || b === null || typeof b !== "object") return false;
    const known = objectMemo.get(a)?.get(b);
    if (known !== undefined) return known;
    return step(
      () => objectsEqual(a, b),
      (same) => {
        let row = objectMemo.get(a);
        if (!row) {
          row = new WeakMap();
          objectMemo.set(a, row);
        }
        row.set(b, same);
      },
    );
  };
  return equal;
}
