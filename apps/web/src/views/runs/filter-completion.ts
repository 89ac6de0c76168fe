// Completion of metric, param and tag keys in the runs filter box.
import { RUN_SEARCH_ATTRIBUTES } from "@tracker-ml/client";
import { quoteKey, type KeyKind } from "./columns";

export interface Completion {
  /** Where the replaced text starts and ends in the filter. */
  start: number;
  end: number;
  /** Full replacements, e.g. "metrics.accuracy". */
  options: string[];
}

const PREFIXES: Record<string, KeyKind> = {
  metrics: "metrics",
  metric: "metrics",
  params: "params",
  param: "params",
  tags: "tags",
  tag: "tags",
};
/** The attributes runs/search accepts (spec/ext.yaml's RunSearchAttribute, through the client). */
const ATTRIBUTES = RUN_SEARCH_ATTRIBUTES.map((name) => `attributes.${name}`);

/**
 * What can complete the word before the cursor: `metrics.ac|` offers the metric keys starting with
 * "ac"; a bare `met|` offers the prefixes. Nothing inside a quoted string.
 */
export function completeFilter(
  text: string,
  cursor: number,
  keys: Record<KeyKind, readonly string[]>,
  limit = 20,
): Completion | undefined {
  const before = text.slice(0, cursor);
  const quotes = (before.match(/'/g) ?? []).length;
  if (quotes % 2 === 1) return undefined;
  const match = /([A-Za-z_][\w.]*|`[^`]*)$/.exec(before);
  if (!match) return undefined;
  const word = match[1]!;
  const start = cursor - word.length;
  let end = cursor;
  while (end < text.length && /[\w.]/.test(text[end]!)) end += 1;
  const dot = word.indexOf(".");
  if (dot === -1) {
    const lower = word.toLowerCase();
    const options = [...new Set(["metrics.", "params.", "tags.", "attributes."])].filter(
      (p) => p.startsWith(lower) && p !== lower,
    );
    return options.length ? { start, end, options } : undefined;
  }
  const prefix = word.slice(0, dot).toLowerCase();
  const partial = word
    .slice(dot + 1)
    .replace(/^`/, "")
    .toLowerCase();
  if (prefix === "attributes" || prefix === "attribute") {
    const options = ATTRIBUTES.filter((a) => a.startsWith(`attributes.${partial}`));
    return options.length ? { start, end, options } : undefined;
  }
  const kind = PREFIXES[prefix];
  if (!kind) return undefined;
  const options = keys[kind]
    .filter((key) => key.toLowerCase().startsWith(partial) && key.toLowerCase() !== partial)
    .slice(0, limit)
    .map((key) => `${kind}.${quoteKey(key)}`);
  return options.length ? { start, end, options } : undefined;
}

/** The filter with the completion applied; returns the new text and the cursor after it. */
export function applyCompletion(
  text: string,
  completion: Completion,
  option: string,
): { text: string; cursor: number } {
  const next = text.slice(0, completion.start) + option + text.slice(completion.end);
  return { text: next, cursor: completion.start + option.length };
}
