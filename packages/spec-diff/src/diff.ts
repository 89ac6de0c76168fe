/**
 * The comparison: api-smart-diff computes and classifies the differences of two normalised
 * documents; this module only names them (operation, request/response field, kind of change),
 * groups the library's low-level diffs that describe one change (a type and its format), and
 * applies the classification rules of ./classify.ts.
 */
import type { Diff } from "api-smart-diff";
import { ACKNOWLEDGE_KEY, acknowledgementsAlong, entryMatches } from "./acknowledge.js";
import { classify, severity, worst, worstLibrary, type LibraryClass } from "./classify.js";
import { deref, getAt, isObject, type JsonObject, type JsonValue, type OpenApiDocument } from "./json.js";
import { libraryDiffs } from "./library.js";
import { locate } from "./locate.js";
import { withoutUnchangedPaths } from "./unchanged.js";
import {
  DEFAULT_PREFIX_PATTERN,
  keyOperations,
  mergeSchemas,
  operationKey,
  prefixKeyCounts,
  SCHEMA_NAME_KEY,
  type NormalisedDocument,
  type NormaliseOptions,
} from "./normalise.js";
import type { SourceSet } from "./sources.js";
import type { Change, ChangeKind, Classification, OperationReport, PrefixMove, Report } from "./types.js";

export interface DiffOptions extends NormaliseOptions {
  /** How the two inputs are named in the report. */
  from?: string;
  to?: string;
  /** The files as written, to give every change its file and line (./locate.ts). */
  sources?: { before?: SourceSet; after?: SourceSet };
}

/** A change on its way into the report: its operation and the library's action are still attached. */
type Pending = Change & { op: string | null; action: Diff["action"] };

type Path = Array<string | number>;

/** A change before grouping and classification. */
interface Draft {
  op: string | null;
  where: string;
  field?: string;
  kind: ChangeKind;
  message: string;
  library?: LibraryClass;
  paths: Path[];
  /** For schema changes: the path of the field's schema, to group the type and format diffs of one field. */
  node?: Path;
  /** For constraint changes: the message without the field, to append it to the field's type change. */
  detail?: string;
  action: Diff["action"];
}

const DOCUMENTATION_KEYS = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "$comment",
  "tags",
  "operationId",
]);

export function diffDocuments(before: OpenApiDocument, after: OpenApiDocument, options: DiffOptions = {}): Report {
  // Equal path items at the same path are left out before the allOf merge, when dropping them
  // cannot change how the other paths are keyed (see normalise); moved ones after it.
  const keyCounts = [before, after].map((d) => prefixKeyCounts(d, options.prefixPattern ?? DEFAULT_PREFIX_PATTERN));
  const early = withoutUnchangedPaths(before, after, {
    droppable: (path) => keyCounts.every((counts) => (counts.get(path) ?? 0) <= 1),
    prune: true,
  });
  // An operation only one side has is reported as a whole: its schemas need no merge.
  const keyedBefore = keyOperations(early.before, options);
  const keyedAfter = keyOperations(early.after, options);
  const b = mergeSchemas(keyedBefore, (operation) => keyedAfter.operations.has(operation));
  const a = mergeSchemas(keyedAfter, (operation) => keyedBefore.operations.has(operation));
  const compared = withoutUnchangedPaths(b.document, a.document);
  const diffs = libraryDiffs(compared.before, compared.after);
  const context = new Context(b, a);

  const drafts: Draft[] = [];
  for (const diff of diffs) {
    const path = diff.path.map((p) => (typeof p === "number" ? p : String(p)));
    if (path[0] === "components") continue; // already reported where the operations use them
    if (path.some((p) => p === SCHEMA_NAME_KEY)) continue; // our own tag, not part of the API
    if (path.some((p) => p === ACKNOWLEDGE_KEY)) continue; // review metadata, not part of the API
    drafts.push(...context.describe(diff, path));
  }

  // Operations that exist on both sides under different paths: the prefix moved.
  const moves = new Map<string, PrefixMove>();
  for (const [key, op] of b.operations) {
    const other = a.operations.get(key);
    if (!other || other.path === op.path) continue;
    drafts.push({
      op: key,
      where: "operation",
      kind: "path-moved",
      message: `path moved: \`${op.path}\` → \`${other.path}\``,
      paths: [["paths", op.key, op.method]],
      action: "rename",
    });
    const from = op.path.slice(0, op.path.length - op.key.length);
    const to = other.path.slice(0, other.path.length - other.key.length);
    const id = `${from} ${to}`;
    const move = moves.get(id) ?? { from, to, operations: 0 };
    move.operations += 1;
    moves.set(id, move);
  }

  const changes = finalise(drafts, context);
  for (const change of changes) {
    placeAndAcknowledge(change, context, options);
  }
  return assemble(changes, b, a, [...moves.values()], options);
}

class Context {
  constructor(
    readonly b: NormalisedDocument,
    readonly a: NormalisedDocument,
  ) {}

  describe(diff: Diff, path: Path): Draft[] {
    const library = diff.type as LibraryClass;
    const base = { library, paths: [path], action: diff.action };
    if (path[0] !== "paths" || path.length < 3 || !isMethod(path[2])) {
      return [{ ...base, op: null, where: "document", kind: documentKind(path), message: documentMessage(diff, path) }];
    }
    const op = operationKey(String(path[2]), String(path[1]));
    const rest = path.slice(3);
    if (rest.length === 0) {
      const added = diff.action === "add";
      return [
        {
          ...base,
          op,
          where: "operation",
          kind: added ? "operation-added" : "operation-removed",
          message: added ? "operation added" : "operation removed",
        },
      ];
    }
    const [first] = rest;
    if (first === "parameters") return this.parameter(diff, path, base, op);
    if (first === "requestBody") return this.body(diff, path, base, op, path.slice(4), "request body", 4);
    if (first === "responses") {
      if (rest.length === 1)
        return [{ ...base, op, where: "operation", kind: "other", message: `responses ${verb(diff)}` }];
      const code = String(rest[1]);
      return this.body(diff, path, base, op, path.slice(5), `response ${code}`, 5);
    }
    const keyword = String(first);
    if (keyword === "deprecated") {
      return [{ ...base, op, where: "operation", kind: "deprecated", message: deprecationMessage(diff, "operation") }];
    }
    if (DOCUMENTATION_KEYS.has(keyword)) {
      return [
        {
          ...base,
          op,
          where: "operation",
          kind: "documentation",
          message: `${keyword} ${verb(diff)}${valueChange(diff, keyword === "operationId")}`,
        },
      ];
    }
    return [
      {
        ...base,
        op,
        where: "operation",
        kind: "other",
        message: `${rest.join(".")} ${verb(diff)}${valueChange(diff, true)}`,
      },
    ];
  }

  private parameter(diff: Diff, path: Path, base: Pick<Draft, "library" | "paths" | "action">, op: string): Draft[] {
    if (path.length === 4) {
      // The whole list of parameters was added or removed: one change per parameter.
      const list = diff.action === "add" ? diff.after : diff.before;
      const doc = diff.action === "add" ? this.a.document : this.b.document;
      if (!Array.isArray(list))
        return [{ ...base, op, where: "operation", kind: "other", message: `parameters ${verb(diff)}` }];
      return list.map((item: JsonValue) => {
        const p = deref(doc, item);
        const param = isObject(p) ? p : {};
        return this.parameterAddedOrRemoved(diff, base, op, param, String(param.name));
      });
    }
    const paramPath = path.slice(0, 5);
    const raw =
      path.length === 5 && diff.action === "add"
        ? deref(this.a.document, diff.after as JsonValue | undefined)
        : getAt(this.b.document, paramPath);
    const param = isObject(raw) ? raw : {};
    const name = typeof param.name === "string" ? param.name : String(path[4]);
    const where = `${typeof param.in === "string" ? param.in : ""} parameter`.trim();
    const sub = path.slice(5);
    if (sub.length === 0) return [this.parameterAddedOrRemoved(diff, base, op, param, name)];
    if (sub[0] === "schema") return this.schema(diff, path, base, op, where, name, 6);
    const keyword = String(sub[0]);
    if (keyword === "required" && sub.length === 1) {
      const now = diff.action === "remove" ? false : diff.after === true;
      return [
        {
          ...base,
          op,
          where,
          field: name,
          kind: "required-changed",
          message: now ? `\`${name}\` is now required` : `\`${name}\` is no longer required`,
        },
      ];
    }
    if (keyword === "deprecated")
      return [
        { ...base, op, where, field: name, kind: "deprecated", message: deprecationMessage(diff, `\`${name}\``) },
      ];
    if (DOCUMENTATION_KEYS.has(keyword))
      return [
        { ...base, op, where, field: name, kind: "documentation", message: `${keyword} of \`${name}\` ${verb(diff)}` },
      ];
    return [
      {
        ...base,
        op,
        where,
        field: name,
        kind: "other",
        message: `\`${name}\`: ${sub.join(".")} ${verb(diff)}${valueChange(diff, true)}`,
      },
    ];
  }

  private parameterAddedOrRemoved(
    diff: Diff,
    base: Pick<Draft, "library" | "paths" | "action">,
    op: string,
    param: JsonObject,
    name: string,
  ): Draft {
    const where = `${typeof param.in === "string" ? param.in : ""} parameter`.trim();
    const required = param.required === true ? "required" : "optional";
    const kind: ChangeKind =
      diff.action === "add" ? "parameter-added" : diff.action === "remove" ? "parameter-removed" : "other";
    return { ...base, op, where, field: name, kind, message: `${required} parameter \`${name}\` ${verb(diff)}` };
  }

  /** A request body or a response: `sub` is the path below `requestBody` or `responses/<code>`. */
  private body(
    diff: Diff,
    path: Path,
    base: Pick<Draft, "library" | "paths" | "action">,
    op: string,
    sub: Path,
    where: string,
    depth: number,
  ): Draft[] {
    const isRequest = where === "request body";
    if (sub.length === 0) {
      const kind: ChangeKind = isRequest
        ? diff.action === "add"
          ? "request-body-added"
          : "request-body-removed"
        : diff.action === "add"
          ? "response-added"
          : "response-removed";
      return [
        { ...base, op, where, kind: diff.action === "replace" ? "other" : kind, message: `${where} ${verb(diff)}` },
      ];
    }
    if (sub[0] === "content") {
      if (sub.length === 1) return [{ ...base, op, where, kind: "other", message: `content ${verb(diff)}` }];
      const type = String(sub[1]);
      if (sub.length === 2) {
        const kind: ChangeKind =
          diff.action === "add" ? "content-type-added" : diff.action === "remove" ? "content-type-removed" : "other";
        return [{ ...base, op, where, kind, message: `content type \`${type}\` ${verb(diff)}` }];
      }
      if (sub[2] === "schema") return this.schema(diff, path, base, op, where, "", depth + 3);
      const keyword = String(sub[2]);
      const kind: ChangeKind = DOCUMENTATION_KEYS.has(keyword) ? "documentation" : "other";
      return [{ ...base, op, where, kind, message: `\`${type}\` ${sub.slice(2).join(".")} ${verb(diff)}` }];
    }
    const keyword = String(sub[0]);
    if (isRequest && keyword === "required" && sub.length === 1) {
      const now = diff.action !== "remove" && diff.after === true;
      return [
        {
          ...base,
          op,
          where,
          kind: "required-changed",
          message: now ? "the request body is now required" : "the request body is no longer required",
        },
      ];
    }
    if (DOCUMENTATION_KEYS.has(keyword))
      return [{ ...base, op, where, kind: "documentation", message: `${keyword} ${verb(diff)}` }];
    return [{ ...base, op, where, kind: "other", message: `${sub.join(".")} ${verb(diff)}${valueChange(diff, true)}` }];
  }

  /** A change inside a schema; `start` is the index of the first segment below `schema`. */
  private schema(
    diff: Diff,
    path: Path,
    base: Pick<Draft, "library" | "paths" | "action">,
    op: string,
    where: string,
    root: string,
    start: number,
  ): Draft[] {
    const segments = path.slice(start);
    let field = root;
    let i = 0;
    let nodeEnd = start;
    let lastWasProperty = false;
    while (i < segments.length) {
      const s = segments[i];
      if (s === "properties" && i + 1 < segments.length) {
        field = joinField(field, String(segments[i + 1]));
        i += 2;
        nodeEnd = start + i;
        lastWasProperty = true;
        continue;
      }
      if (s === "items" && i + 1 < segments.length) {
        field += "[]";
        i += 1;
        nodeEnd = start + i;
        lastWasProperty = false;
        continue;
      }
      if ((s === "anyOf" || s === "oneOf" || s === "allOf") && i + 2 < segments.length) {
        i += 2; // inside one alternative: the field is still the same
        lastWasProperty = false;
        continue;
      }
      break;
    }
    const keyword = segments.slice(i).map(String);
    const node = path.slice(0, nodeEnd);
    const label = fieldLabel(field, where);
    const d = { ...base, op, where, node };

    if (keyword.length === 0 && lastWasProperty) {
      if (diff.action === "add")
        return [{ ...d, field, kind: "field-added", message: `field ${label}${this.schemaName(diff.after)} added` }];
      if (diff.action === "remove")
        return [
          { ...d, field, kind: "field-removed", message: `field ${label}${this.schemaName(diff.before)} removed` },
        ];
      return [{ ...d, field, kind: "type-changed", node, message: "" }];
    }
    const [k] = keyword;
    if (
      keyword.length === 0 ||
      k === "type" ||
      k === "format" ||
      ((k === "anyOf" || k === "oneOf") && keyword.length <= 2) ||
      (k === "items" && keyword.length === 1)
    ) {
      return [{ ...d, field, kind: "type-changed", node, message: "" }];
    }
    if (k === "properties" && keyword.length === 1) {
      const value = diff.action === "add" ? diff.after : diff.before;
      const names = isObject(value) ? Object.keys(value) : [];
      const kind: ChangeKind = diff.action === "add" ? "field-added" : "field-removed";
      return names.map((name) => ({
        ...d,
        field: joinField(field, name),
        kind,
        message: `field \`${joinField(field, name)}\` ${verb(diff)}`,
      }));
    }
    if (k === "required") {
      const value = diff.action === "add" ? diff.after : diff.before;
      const names = Array.isArray(value) ? value.map(String) : [String(value)];
      return names.map((name) => {
        const target = joinField(field, name);
        const now = diff.action === "add";
        return {
          ...d,
          field: target,
          kind: "required-changed" as const,
          message: now ? `\`${target}\` is now required` : `\`${target}\` is no longer required`,
        };
      });
    }
    if (k === "enum") {
      if (keyword.length === 2) {
        const value = summarise(diff.action === "add" ? diff.after : diff.before);
        const message =
          diff.action === "add"
            ? `enum value ${code(value)} added to ${label}`
            : diff.action === "remove"
              ? `enum value ${code(value)} removed from ${label}`
              : `enum value of ${label} changed${valueChange(diff, true)}`;
        return [{ ...d, field, kind: "enum-changed", message }];
      }
      return [
        { ...d, field, kind: "enum-changed", message: `enum of ${label} ${verb(diff)}${valueChange(diff, true)}` },
      ];
    }
    if (k === "deprecated") {
      const name = this.schemaName(getAt(this.a.document, this.translate(node)) ?? getAt(this.b.document, node));
      return [{ ...d, field, kind: "deprecated", message: deprecationMessage(diff, `${label}${name}`) }];
    }
    if (DOCUMENTATION_KEYS.has(k) || k.startsWith("x-")) {
      return [{ ...d, field, kind: "documentation", message: `${k} of ${label} ${verb(diff)}` }];
    }
    return [
      {
        ...d,
        field,
        kind: "constraint-changed",
        detail: `${keyword.join(".")} ${verb(diff)}${valueChange(diff, true)}`,
        message: `${label}: ${keyword.join(".")} ${verb(diff)}${valueChange(diff, true)}`,
      },
    ];
  }

  schemaName(value: unknown): string {
    return isObject(value) && typeof value[SCHEMA_NAME_KEY] === "string" ? ` (${value[SCHEMA_NAME_KEY]})` : "";
  }

  /** A path of the "before" document in the "after" document: parameters are matched by name and location. */
  translate(path: Path): Path {
    if (path[3] !== "parameters" || path.length < 5) return path;
    const param = getAt(this.b.document, path.slice(0, 5));
    const list = getAt(this.a.document, path.slice(0, 4));
    if (!isObject(param) || !Array.isArray(list)) return path;
    const index = list.findIndex((p) => {
      const q = deref(this.a.document, p);
      return isObject(q) && q.name === param.name && q.in === param.in;
    });
    return index < 0 ? path : [...path.slice(0, 4), index, ...path.slice(5)];
  }

  typeChange(node: Path): { before: string; after: string; baseTypeChanged: boolean } {
    const before = getAt(this.b.document, node);
    const after = getAt(this.a.document, this.translate(node));
    return {
      before: describeType(before, this.b.document),
      after: describeType(after, this.a.document),
      baseTypeChanged: baseTypes(before, this.b.document) !== baseTypes(after, this.a.document),
    };
  }
}

/** Groups the diffs of one change, merges a field's addition with its required-ness, classifies. */
function finalise(drafts: Draft[], context: Context): Pending[] {
  // 1. One type change per field, whatever number of type/format/anyOf diffs the library gave.
  const grouped: Draft[] = [];
  const groups = new Map<string, Draft[]>();
  for (const draft of drafts) {
    if (draft.kind !== "type-changed" || !draft.node) {
      grouped.push(draft);
      continue;
    }
    const id = `${draft.op}|${draft.where}|${draft.node.join("/")}`;
    const group = groups.get(id);
    if (group) group.push(draft);
    else {
      groups.set(id, [draft]);
      grouped.push(draft); // placeholder, keeps the group at its first diff's position
    }
  }
  const typeFlags = new Map<Draft, boolean>();
  const typeChanges = new Map<string, Draft>();
  const details = new Map<Draft, string[]>();
  const out: Draft[] = [];
  for (const draft of grouped) {
    if (draft.kind !== "type-changed" || !draft.node) {
      out.push(draft);
      continue;
    }
    const members = groups.get(`${draft.op}|${draft.where}|${draft.node.join("/")}`) ?? [draft];
    const change = context.typeChange(draft.node);
    const label = fieldLabel(draft.field ?? "", draft.where);
    if (change.before === change.after) {
      // Nothing a reader would call a type change (e.g. a detail inside one alternative).
      for (const m of members)
        out.push({
          ...m,
          kind: "constraint-changed",
          message: `${label}: ${m.paths[0]?.slice(m.node?.length ?? 0).join(".") || "schema"} changed`,
        });
      continue;
    }
    const merged: Draft = {
      ...draft,
      message: `type of ${label} changed: ${change.before} → ${change.after}`,
      library: worstLibrary(members.map((m) => m.library)),
      paths: members.flatMap((m) => m.paths),
    };
    typeFlags.set(merged, change.baseTypeChanged);
    typeChanges.set(`${draft.op}|${draft.where}|${draft.node.join("/")}`, merged);
    out.push(merged);
  }
  // A changed pattern or length of a field whose type changed is part of that change.
  const absorbed = out.filter((d) => {
    if (d.kind !== "constraint-changed" || !d.node || !d.detail) return true;
    const typeChange = typeChanges.get(`${d.op}|${d.where}|${d.node.join("/")}`);
    if (!typeChange) return true;
    details.set(typeChange, [...(details.get(typeChange) ?? []), d.detail]);
    typeChange.library = worstLibrary([typeChange.library, d.library]);
    typeChange.paths.push(...d.paths);
    return false;
  });
  for (const [typeChange, list] of details) typeChange.message += ` (${list.join("; ")})`;

  // 2. "field added" + "now required" is one change ("required field added"); same for removals.
  const byField = (d: Draft) => `${d.op}|${d.where}|${d.field}`;
  const fields = new Map<string, Draft>();
  for (const d of absorbed) if (d.kind === "field-added" || d.kind === "field-removed") fields.set(byField(d), d);
  const result: Draft[] = [];
  for (const d of absorbed) {
    const field = d.kind === "required-changed" ? fields.get(byField(d)) : undefined;
    if (
      field &&
      ((field.kind === "field-added" && d.action === "add") ||
        (field.kind === "field-removed" && d.action === "remove"))
    ) {
      field.library = worstLibrary([field.library, d.library]);
      field.paths.push(...d.paths);
      if (field.kind === "field-added") field.message = `required ${field.message}`;
      continue;
    }
    result.push(d);
  }

  // 3. Classify, and drop exact repetitions (one change reached through two diffs).
  const seen = new Map<string, Pending>();
  const changes: Pending[] = [];
  for (const d of result) {
    const { classification, rule } = classify({ kind: d.kind, library: d.library, baseTypeChanged: typeFlags.get(d) });
    const id = `${d.op}|${d.where}|${d.message}`;
    const previous = seen.get(id);
    if (previous) {
      previous.classification = worst(previous.classification, classification);
      previous.paths.push(...d.paths);
      continue;
    }
    const change: Pending = {
      op: d.op,
      action: d.action,
      classification,
      kind: d.kind,
      where: d.where,
      ...(d.field !== undefined && d.field !== "" ? { field: d.field } : {}),
      message: d.message,
      ...(d.library ? { library: d.library } : {}),
      ...(rule ? { rule } : {}),
      paths: d.paths,
    };
    seen.set(id, change);
    changes.push(change);
  }
  return changes;
}

/** The path as written in one side's document: its own API prefix in place of the comparison key. */
function sidePath(path: Path, side: NormalisedDocument): Path {
  if (path[0] !== "paths" || path.length < 2) return path;
  const original = side.originalPaths.get(String(path[1]));
  return original === undefined ? path : ["paths", original, ...path.slice(2)];
}

/**
 * Gives a change its locations in the old and the new file (a node that one side lacks is placed
 * at its parent there), and for a breaking change, the acknowledgement of the new spec, if any.
 */
function placeAndAcknowledge(change: Pending, context: Context, options: DiffOptions): void {
  // A type change is shown at its `type` keyword when it has one (not at a `format` beside it).
  const first =
    (change.kind === "type-changed" ? change.paths.find((p) => p[p.length - 1] === "type") : undefined) ??
    change.paths[0];
  if (!first) return;
  const beforePath = change.action === "add" ? first.slice(0, -1) : first;
  const translated = context.translate(first);
  const afterPath = change.action === "remove" ? translated.slice(0, -1) : translated;
  const { before, after } = options.sources ?? {};
  if (before) change.before = locate(before, sidePath(beforePath, context.b));
  if (after) change.after = locate(after, sidePath(afterPath, context.a));
  if (change.classification !== "breaking") return;
  // Only an entry that the old spec did not have counts: a stale one cannot let a later break through.
  const key = (e: { change?: string; reason: string }) => `${e.change ?? ""}\u0000${e.reason}`;
  const old = new Set(acknowledgementsAlong(context.b.document, beforePath).map(key));
  const entry = acknowledgementsAlong(context.a.document, afterPath).find(
    (e) => entryMatches(e, change) && !old.has(key(e)),
  );
  if (!entry) return;
  change.acknowledged = {
    reason: entry.reason,
    ...(entry.change ? { change: entry.change } : {}),
    ...(after ? { at: locate(after, sidePath([...entry.node, ACKNOWLEDGE_KEY], context.a)) } : {}),
  };
}

function whereRank(where: string): number {
  if (where === "operation") return 0;
  if (where.endsWith("parameter")) return 1;
  if (where === "request body") return 2;
  const code = /^response (\d+)/.exec(where)?.[1];
  return code ? 3 + Number(code) : 1000;
}

function assemble(
  all: Pending[],
  b: NormalisedDocument,
  a: NormalisedDocument,
  moves: PrefixMove[],
  options: DiffOptions,
): Report {
  const strip = ({ op: _op, action: _action, ...change }: Pending): Change => change;
  const byOperation = new Map<string, Change[]>();
  const document: Change[] = [];
  for (const change of all) {
    if (change.op === null) document.push(strip(change));
    else byOperation.set(change.op, [...(byOperation.get(change.op) ?? []), strip(change)]);
  }
  const order = (changes: Change[]) =>
    changes
      .map((c, i) => ({ c, i }))
      .sort(
        (x, y) =>
          severity(x.c.classification) - severity(y.c.classification) ||
          whereRank(x.c.where) - whereRank(y.c.where) ||
          x.i - y.i,
      )
      .map(({ c }) => c);

  const keys = [
    ...[...a.operations.entries()].sort((x, y) => x[1].order - y[1].order).map(([k]) => k),
    ...[...b.operations.entries()]
      .filter(([k]) => !a.operations.has(k))
      .sort((x, y) => x[1].order - y[1].order)
      .map(([k]) => k),
  ];
  const operations: OperationReport[] = [];
  for (const key of keys) {
    const changes = byOperation.get(key);
    if (!changes || changes.length === 0) continue;
    const before = b.operations.get(key);
    const after = a.operations.get(key);
    const info = after ?? before;
    if (!info) continue;
    const operationId = after?.operationId ?? before?.operationId;
    operations.push({
      key: `${info.method.toUpperCase()} ${info.key.replace(/^\//, "")}`,
      method: info.method.toUpperCase(),
      ...(operationId ? { operationId } : {}),
      status: !before ? "added" : !after ? "removed" : "changed",
      ...(before ? { pathBefore: before.path } : {}),
      ...(after ? { pathAfter: after.path } : {}),
      changes: order(changes),
    });
  }
  const everything = [...document, ...operations.flatMap((o) => o.changes)];
  const count = (c: Classification) => everything.filter((x) => x.classification === c).length;
  return {
    from: options.from ?? "before",
    to: options.to ?? "after",
    summary: {
      breaking: count("breaking"),
      "non-breaking": count("non-breaking"),
      annotation: count("annotation"),
      acknowledged: everything.filter((x) => x.acknowledged).length,
      deprecations: everything.filter((x) => x.kind === "deprecated").length,
      operationsAdded: operations.filter((o) => o.status === "added").length,
      operationsRemoved: operations.filter((o) => o.status === "removed").length,
      operationsChanged: operations.filter((o) => o.status === "changed").length,
    },
    prefixMoves: moves,
    document: order(document),
    operations,
  };
}

function fieldLabel(field: string, where: string): string {
  if (field !== "") return `\`${field}\``;
  return where === "request body"
    ? "the request body"
    : where.startsWith("response")
      ? "the response body"
      : "the schema";
}

function isMethod(value: string | number | undefined): boolean {
  return (
    typeof value === "string" && ["get", "put", "post", "delete", "options", "head", "patch", "trace"].includes(value)
  );
}

function joinField(parent: string, name: string): string {
  return parent === "" ? name : `${parent}.${name}`;
}

function verb(diff: Diff): string {
  switch (diff.action) {
    case "add":
      return "added";
    case "remove":
      return "removed";
    case "rename":
      return "renamed";
    default:
      return "changed";
  }
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function summarise(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** ` (old → new)` for a replaced scalar, ` (value)` for an added or removed one. */
function valueChange(diff: Diff, show: boolean): string {
  if (!show) return "";
  const scalar = (v: unknown) => v === undefined || v === null || typeof v !== "object";
  if (diff.action === "replace" && scalar(diff.before) && scalar(diff.after))
    return `: ${code(summarise(diff.before))} → ${code(summarise(diff.after))}`;
  if (diff.action === "add" && scalar(diff.after)) return `: ${code(summarise(diff.after))}`;
  if (diff.action === "remove" && scalar(diff.before)) return `: ${code(summarise(diff.before))}`;
  return "";
}

function deprecationMessage(diff: Diff, what: string): string {
  const now = diff.action === "remove" ? false : diff.after === true;
  return now ? `${what} deprecated` : `${what} no longer deprecated`;
}

function documentKind(path: Path): ChangeKind {
  const [first] = path;
  const last = String(path[path.length - 1]);
  return first === "info" || first === "tags" || first === "externalDocs" || DOCUMENTATION_KEYS.has(last)
    ? "documentation"
    : "other";
}

function documentMessage(diff: Diff, path: Path): string {
  const where = path.map(String).join(".");
  if (path[0] === "info") return `${where} ${verb(diff)}${valueChange(diff, path[1] !== "description")}`;
  return `${where} ${verb(diff)}${valueChange(diff, true)}`;
}

function resolveIn(root: JsonValue, ref: string): JsonValue | undefined {
  return deref(root, { $ref: ref });
}

/** The schema `node` is, or the one its `$ref` points to; undefined when that is not an object. */
function schemaAt(node: JsonValue | undefined, root: JsonValue): JsonObject | undefined {
  const schema = isObject(node) && typeof node.$ref === "string" ? resolveIn(root, node.$ref) : node;
  return isObject(schema) ? schema : undefined;
}

/** The alternatives of a schema: its anyOf, else its oneOf. */
function alternativesOf(schema: JsonObject): JsonValue[] | undefined {
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  return Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
}

/** `integer (int64)`, `string`, `integer (int64) | string`, `array of string`. */
export function describeType(node: JsonValue | undefined, root: JsonValue): string {
  const schema = schemaAt(node, root);
  if (!schema) return "none";
  const alternatives = alternativesOf(schema);
  if (alternatives) return alternatives.map((alt) => describeType(alt, root)).join(" | ");
  let type = Array.isArray(schema.type)
    ? schema.type.map(String).join(" or ")
    : typeof schema.type === "string"
      ? schema.type
      : undefined;
  if (type === undefined) type = isObject(schema.properties) ? "object" : Array.isArray(schema.enum) ? "enum" : "any";
  if (type === "array" && isObject(schema.items)) type = `array of ${describeType(schema.items, root)}`;
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

function baseTypes(node: JsonValue | undefined, root: JsonValue): string {
  const schema = schemaAt(node, root);
  if (!schema) return "";
  const alternatives = alternativesOf(schema);
  const types = new Set<string>();
  if (alternatives)
    for (const alt of alternatives)
      baseTypes(alt, root)
        .split(",")
        .filter(Boolean)
        .forEach((t) => {
          types.add(t);
        });
  else if (Array.isArray(schema.type)) for (const t of schema.type) types.add(String(t));
  else if (typeof schema.type === "string")
    types.add(
      schema.type === "array" && isObject(schema.items) ? `array<${baseTypes(schema.items, root)}>` : schema.type,
    );
  return [...types].sort().join(",");
}
