/**
 * Parsing a YAML (or JSON) file once, into its plain value and an index of where each node is
 * written: for a mapping, the offset of each key and its value's node; for a sequence, its items.
 * js-yaml (with the YAML 1.2 core schema) does the parsing, which costs a fraction of a full
 * syntax tree; its parse events give the positions.
 */
import { CORE_SCHEMA, load, type State } from "js-yaml";
import type { JsonValue } from "./json.js";

/** A node of the file as written. */
export interface PositionNode {
  /** Offset of the node's first character in the text. */
  start: number;
  /** A mapping: each key (its first occurrence) with the offset of the key and the value's node. */
  entries?: Map<string, { key: number; value: PositionNode }>;
  /** A sequence: its items. */
  items?: PositionNode[];
  /** A scalar: its value; an alias: the collection it names (see `PositionIndex.resolve`). */
  value?: unknown;
}

export interface PositionIndex {
  root: PositionNode | undefined;
  /** The node an alias stands for (the node itself when it is no alias). */
  resolve(node: PositionNode): PositionNode;
  /** 1-based line and column of an offset. */
  linePos(offset: number): { line: number; col: number };
}

export interface ParsedText {
  value: JsonValue;
  positions: PositionIndex;
}

/**
 * A node as js-yaml reported it: opened at `start`, then (once closed) its kind, its value and the
 * nodes reported inside it. One object per node, and a list of children only for a node that has
 * some: a spec has tens of thousands of nodes, and their allocation was most of this index's cost.
 */
interface Built {
  start: number;
  kind: string | null;
  result: unknown;
  children: Built[] | null;
}

/** The offset of a node's content: after white space, comments, and its anchor and tag (as `yaml` counts). */
function contentStart(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */ || c === 0x26 /* & */ || c === 0x21 /* ! */) {
      // A comment runs to the end of the line; an anchor or a tag to the next white space.
      const stop = c === 0x23 ? /\n/g : /[\s]/g;
      stop.lastIndex = i;
      const end = stop.exec(text)?.index;
      i = end === undefined ? text.length : end;
    } else break;
  }
  return i;
}

/** Parses `text`; throws js-yaml's error (with its line) when it is not valid YAML. */
export function parseWithPositions(text: string): ParsedText {
  // js-yaml drops a byte order mark before parsing: its offsets are one less than the text's.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const top: Built = { start: 0, kind: null, result: undefined, children: null };
  const stack: Built[] = [top];
  const collections = new Map<unknown, Built>();
  const value = load(text, {
    schema: CORE_SCHEMA,
    json: true,
    listener(event, state: State) {
      if (event === "open") {
        stack.push({ start: state.position + shift, kind: null, result: undefined, children: null });
        return;
      }
      const built = stack.pop();
      const parent = stack[stack.length - 1];
      if (!built || !parent) return;
      const only = built.children?.length === 1 ? built.children[0] : undefined;
      // A node that js-yaml composed in two nested steps reports twice: keep the inner one.
      const kept = only && only.result === state.result ? only : built;
      if (kept === built) {
        built.kind = state.kind;
        built.result = state.result;
        // The first node that holds a collection is where it is written; aliases name it later.
        if ((built.kind === "mapping" || built.kind === "sequence") && !collections.has(built.result))
          collections.set(built.result, built);
      }
      if (parent.children) parent.children.push(kept);
      else parent.children = [kept];
    },
  }) as JsonValue | undefined;

  // The index is built lazily: a node's entries or items when a walk first asks for them.
  const nodes = new WeakMap<Built, PositionNode>();
  const nodeOf = (built: Built): PositionNode => {
    const known = nodes.get(built);
    if (known) return known;
    const node = lazyNode(built);
    nodes.set(built, node);
    return node;
  };
  const lazyNode = (built: Built): PositionNode => {
    const start = contentStart(text, built.start);
    if (built.kind === "mapping") {
      let entries: Map<string, { key: number; value: PositionNode }> | undefined;
      return {
        start,
        get entries() {
          if (!entries) {
            entries = new Map();
            const children = built.children ?? [];
            for (let i = 0; i + 1 < children.length; i += 2) {
              const key = children[i] as Built;
              const name = String(key.result);
              const value = children[i + 1] as Built;
              if (!entries.has(name)) entries.set(name, { key: contentStart(text, key.start), value: nodeOf(value) });
            }
          }
          return entries;
        },
      };
    }
    if (built.kind === "sequence") {
      let items: PositionNode[] | undefined;
      return {
        start,
        get items() {
          items ??= (built.children ?? []).map(nodeOf);
          return items;
        },
      };
    }
    return { start, value: built.result };
  };
  const first = top.children?.[0];
  const root = first ? nodeOf(first) : undefined;

  let lineStarts: number[] | undefined;
  const linePos = (offset: number) => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
    }
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - (lineStarts[low] as number) + 1 };
  };
  const resolve = (node: PositionNode): PositionNode => {
    const collection = node.value !== null && typeof node.value === "object" ? collections.get(node.value) : undefined;
    return collection ? nodeOf(collection) : node;
  };

  return { value: value ?? null, positions: { root, resolve, linePos } };
}
