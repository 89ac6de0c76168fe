import fs from "node:fs";
import { specPath, type Revision } from "@tracker/server";

/**
 * The operations of the bundled spec documents (spec/dist/rev-*.json) with their request schemas
 * flattened ($ref resolved, allOf merged), so tests can derive valid and invalid requests from them.
 */

export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface QueryParameter {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  revision: Revision;
  method: HttpMethod;
  /** Full request path, e.g. `/api/2.0/tracker/runs/log-batch`. */
  path: string;
  operationId: string;
  query: QueryParameter[];
  /** The JSON body's schema (an object), for operations with a body. */
  body?: Schema;
}

type Json = Record<string, unknown>;

function lookup(doc: Json, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .reduce<Json>((node, key) => (node as Record<string, Json>)[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

const SCHEMA_KEYWORDS = [
  "type",
  "enum",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "format",
  "required",
  "additionalProperties",
] as const;

/** Resolves $ref and merges allOf into one schema; keeps anyOf/oneOf branches (flattened too). */
export function flatten(doc: Json, raw: unknown, depth = 0): Schema {
  if (depth > 20 || raw === null || typeof raw !== "object") return {};
  let node = raw as Json;
  const out: Schema & Record<string, unknown> = {};
  const merge = (part: Schema) => {
    for (const key of SCHEMA_KEYWORDS) {
      if (part[key] === undefined) continue;
      if (key === "required") out.required = [...new Set([...(out.required ?? []), ...(part.required ?? [])])];
      else (out as Record<string, unknown>)[key] = part[key];
    }
    if (part.properties) out.properties = { ...(out.properties ?? {}), ...part.properties };
    if (part.items) out.items = part.items;
    if (part.anyOf) out.anyOf = part.anyOf;
    if (part.oneOf) out.oneOf = part.oneOf;
  };
  if (typeof node.$ref === "string") merge(flatten(doc, lookup(doc, node.$ref), depth + 1));
  if (Array.isArray(node.allOf)) for (const part of node.allOf) merge(flatten(doc, part, depth + 1));
  node = { ...node };
  delete node.$ref;
  delete node.allOf;
  const own: Schema = {};
  for (const key of SCHEMA_KEYWORDS) if (node[key] !== undefined) (own as Record<string, unknown>)[key] = node[key];
  if (node.properties) {
    own.properties = Object.fromEntries(
      Object.entries(node.properties as Json).map(([k, v]) => [k, flatten(doc, v, depth + 1)]),
    );
  }
  if (node.items) own.items = flatten(doc, node.items, depth + 1);
  if (Array.isArray(node.anyOf)) own.anyOf = node.anyOf.map((s) => flatten(doc, s, depth + 1));
  if (Array.isArray(node.oneOf)) own.oneOf = node.oneOf.map((s) => flatten(doc, s, depth + 1));
  merge(own);
  return out;
}

const METHODS: HttpMethod[] = ["GET", "POST", "PATCH", "DELETE"];

/** Every operation of one revision's bundled spec. */
export function operationsOf(revision: Revision): Operation[] {
  const doc = JSON.parse(fs.readFileSync(specPath(revision), "utf8")) as Json;
  const base = ((doc.servers as Array<{ url: string }> | undefined)?.[0]?.url ?? "/api").replace(/\/$/, "");
  const operations: Operation[] = [];
  for (const [pathname, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method.toLowerCase()] as Json | undefined;
      if (!op || typeof op.operationId !== "string") continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(
        (p) => {
          const param = (typeof (p as Json).$ref === "string" ? lookup(doc, (p as Json).$ref as string) : p) as Json;
          return param;
        },
      );
      const query = parameters
        .filter((p) => p.in === "query")
        .map((p) => ({ name: p.name as string, required: p.required === true, schema: flatten(doc, p.schema) }));
      const bodySchema = ((op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        "application/json"
      ]?.schema;
      operations.push({
        revision,
        method,
        path: `${base}${pathname}`,
        operationId: op.operationId,
        query,
        body: bodySchema ? flatten(doc, bodySchema) : undefined,
      });
    }
  }
  return operations;
}

/** Every operation of every revision, in the order A, B, C. */
export function allOperations(): Operation[] {
  return (["a", "b", "c"] as const).flatMap(operationsOf);
}
