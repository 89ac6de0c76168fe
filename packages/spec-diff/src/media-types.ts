/**
 * How the content types of a request body or response are paired for the comparison.
 *
 * api-smart-diff pairs each old type with the first new type it matches, where `*` matches any
 * part (`application/json` matches `*` + `/` + `*`), even when that new type is already taken: an
 * unchanged `*` + `/` + `*` offered beside `application/json` was then reported as removed and
 * added. Here exact matches (parameters after `;` ignored) are paired first, and a wildcard
 * pairs only with a type that is still free.
 */
import type { MapKeysResult } from "api-smart-diff";

const essence = (mediaType: string): string => (mediaType.split(";")[0] ?? "").trim().toLowerCase();

function wildcardMatch(a: string, b: string): boolean {
  const [aType, aSub] = a.split("/");
  const [bType, bSub] = b.split("/");
  return (aType === bType || aType === "*" || bType === "*") && (aSub === bSub || aSub === "*" || bSub === "*");
}

/** Pairs the content types of two `content` objects: exact first, then by wildcard among the free ones. */
export function mapMediaTypes(before: Record<string, unknown>, after: Record<string, unknown>): MapKeysResult<string> {
  const mapped: Record<string, string> = {};
  const free = new Set(Object.keys(after));
  const unpaired: string[] = [];
  for (const key of Object.keys(before)) {
    const exact = [...free].find((candidate) => essence(candidate) === essence(key));
    if (exact === undefined) unpaired.push(key);
    else {
      mapped[key] = exact;
      free.delete(exact);
    }
  }
  const removed: string[] = [];
  for (const key of unpaired) {
    const match = [...free].find((candidate) => wildcardMatch(essence(key), essence(candidate)));
    if (match === undefined) removed.push(key);
    else {
      mapped[key] = match;
      free.delete(match);
    }
  }
  return { added: [...free], removed, mapped };
}
