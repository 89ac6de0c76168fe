/**
 * Acknowledging a breaking change in the new spec itself, so that an intended break passes the
 * gate and the review shows why:
 *
 * ```yaml
 * x-breaking-change-acknowledged:
 *   - change: experiment_id          # a field, a kind of change, or words of the change's message
 *     reason: experiment ids are strings from revision C on
 * ```
 *
 * The field may stand on the changed node, on any node above it (a schema, a response, the
 * operation, the path item, the document), as one entry, a list of entries, or a plain string
 * (the reason, for every breaking change below it). An entry without `change` acknowledges every
 * breaking change below the node. The nearest matching entry wins.
 */
import { deref, isObject, type JsonPath, type JsonValue } from "./json.js";
import type { Change } from "./types.js";

export const ACKNOWLEDGE_KEY = "x-breaking-change-acknowledged";

export interface AcknowledgementEntry {
  change?: string;
  reason: string;
  /** Path (in the compared document) of the node that holds the entry. */
  node: Array<string | number>;
}

/** The entries on the nodes from the document's root down to `path`, nearest first. */
export function acknowledgementsAlong(document: JsonValue, path: JsonPath): AcknowledgementEntry[] {
  const found: AcknowledgementEntry[] = [];
  const collect = (node: JsonValue | undefined, at: Array<string | number>): void => {
    if (isObject(node) && node[ACKNOWLEDGE_KEY] !== undefined) found.push(...parseEntries(node[ACKNOWLEDGE_KEY], at));
  };
  let node: JsonValue | undefined = document;
  collect(node, []);
  const seen = new Set<JsonValue>();
  for (let i = 0; i < path.length; i++) {
    node = deref(document, node, seen);
    const key = path[i];
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, String(key))) node = node[String(key)];
    else break;
    node = deref(document, node, seen);
    collect(node, path.slice(0, i + 1) as Array<string | number>);
  }
  return found.reverse();
}

function parseEntries(value: JsonValue, node: Array<string | number>): AcknowledgementEntry[] {
  const where = node.length === 0 ? "the document" : node.join("/");
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (typeof entry === "string" && entry.trim() !== "") return { reason: entry, node };
    if (isObject(entry) && typeof entry.reason === "string" && entry.reason.trim() !== "") {
      if (entry.change !== undefined && typeof entry.change !== "string") {
        throw new Error(`${ACKNOWLEDGE_KEY} at ${where}: \`change\` must be a string`);
      }
      return { reason: entry.reason, node, ...(entry.change ? { change: entry.change } : {}) };
    }
    throw new Error(
      `${ACKNOWLEDGE_KEY} at ${where}: each entry needs a \`reason\` (\`{change: <what>, reason: <why>}\` or a string)`,
    );
  });
}

/** Whether an entry names this change: its field, its kind, its location, or words of its message. */
export function entryMatches(entry: Pick<AcknowledgementEntry, "change">, change: Change): boolean {
  if (!entry.change) return true;
  const needle = entry.change.trim().toLowerCase();
  const message = change.message.replace(/`/g, "").toLowerCase();
  return (
    change.field?.toLowerCase() === needle ||
    change.kind === needle ||
    change.where.toLowerCase() === needle ||
    message.includes(needle)
  );
}
