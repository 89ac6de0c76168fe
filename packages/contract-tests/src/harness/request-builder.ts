import fs from "node:fs";
import { bundledSpecFile, type Revision } from "@tracker/spec";

/**
 * Builds requests for the generic error cases from a revision's spec: a request with every
 * required field filled (naming things that do not exist, for 404), one with a field broken
 * (for 400), and one with an oversized body (for 413).
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  pattern?: string;
};
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface BuiltRequest {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Values naming nothing that exists, by field name. */
const MISSING_VALUES: Record<string, (rev: Revision) => unknown> = {
  experiment_id: (rev) => (rev === "c" ? "987654321" : 987654321),
  run_id: () => "0".repeat(32),
  run_uuid: () => "0".repeat(32),
  experiment_name: () => "no-such-experiment-anywhere",
  name: () => "no-such-model-anywhere",
  new_name: () => "renamed-no-such-model",
  version: () => "987654",
  key: () => "some_key",
  value: () => "some value",
  metric_key: () => "some_metric",
  param_name: () => "some_param",
  path: () => "some/file.txt",
  source: () => "/tmp/model-source",
  stage: () => "Staging",
  archive_existing_versions: () => false,
  timestamp: () => 1700000000000,
  model_json: () =>
    JSON.stringify({ artifact_path: "m", flavors: {}, utc_time_created: "2026-01-01", run_id: "0".repeat(32) }),
};

export class RequestBuilder {
  private readonly doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema>; parameters?: Record<string, Parameter> };
  };

  constructor(readonly revision: Revision) {
    this.doc = JSON.parse(fs.readFileSync(bundledSpecFile(revision), "utf8"));
  }

  private operation(method: string, path: string): Operation {
    const op = this.doc.paths[path][method.toLowerCase()];
    const parameters = (op.parameters ?? []).map((p) => {
      const ref = (p as Parameter & { $ref?: string }).$ref;
      return ref ? this.doc.components.parameters![ref.split("/").pop()!] : p;
    });
    return { ...op, parameters };
  }

  private deref(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    while (s.$ref) s = this.doc.components.schemas[s.$ref.split("/").pop()!];
    if (s.allOf)
      return Object.assign({}, ...s.allOf.map((part) => ({ ...this.deref(part), ...s, allOf: undefined }))) as Schema;
    return s;
  }

  private bodySchema(op: Operation): Schema | undefined {
    const schema = op.requestBody?.content?.["application/json"]?.schema;
    return schema ? this.deref(schema) : undefined;
  }

  private value(field: string, schema: Schema): unknown {
    const s = this.deref(schema);
    const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.anyOf ? this.deref(s.anyOf[0]).type : undefined));
    const known = MISSING_VALUES[field];
    if (known && !(field === "value" && (type === "number" || type === "integer"))) return known(this.revision);
    if (s.enum) return s.enum[0];
    if (type === "integer" || type === "number") return 1;
    if (type === "boolean") return false;
    if (type === "array") return [];
    if (type === "object") return {};
    return "x";
  }

  /** Every required field filled with a value naming nothing that exists. */
  missingResource(method: string, path: string): BuiltRequest {
    const op = this.operation(method, path);
    const query: Record<string, unknown> = {};
    for (const p of op.parameters ?? [])
      if (p.in === "query" && p.required) query[p.name] = this.value(p.name, p.schema ?? {});
    // Fields the server needs although the schema leaves them optional: a run id (run_id or the
    // deprecated run_uuid) and A's artifacts/get path.
    for (const p of op.parameters ?? []) {
      if (p.in !== "query" || p.name in query) continue;
      const runIdGiven = "run_id" in query || "run_uuid" in query;
      if (((p.name === "run_id" || p.name === "run_uuid") && !runIdGiven) || p.name === "path")
        query[p.name] = this.value(p.name, {});
    }
    const schema = this.bodySchema(op);
    let body: Record<string, unknown> | undefined;
    if (schema) {
      body = {};
      for (const field of schema.required ?? []) body[field] = this.value(field, schema.properties?.[field] ?? {});
      // Optional fields the server needs to get as far as looking the resource up (run_id, model_json, ...).
      for (const field of Object.keys(schema.properties ?? {})) {
        if (!(field in body) && field in MISSING_VALUES && field !== "run_uuid")
          body[field] = this.value(field, schema.properties![field]);
      }
    }
    return { method, path, query: Object.keys(query).length ? query : undefined, body };
  }

  /** A request the spec forbids: required fields missing, or a field of the wrong type. */
  invalid(method: string, path: string): BuiltRequest {
    const op = this.operation(method, path);
    const requiredQuery = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
    const schema = this.bodySchema(op);
    if (requiredQuery.length > 0 || (schema?.required ?? []).length > 0) {
      // Everything required left out: the request is empty.
      return { method, path, query: undefined, body: schema ? {} : undefined };
    }
    const base = this.missingResource(method, path);
    const numeric = (op.parameters ?? []).find(
      (p) => p.in === "query" && ["integer", "number"].includes(String(this.deref(p.schema).type)),
    );
    if (numeric) return { ...base, query: { ...base.query, [numeric.name]: "not-a-number" } };
    const enumParam = (op.parameters ?? []).find((p) => p.in === "query" && this.deref(p.schema).enum);
    if (enumParam) return { ...base, query: { ...base.query, [enumParam.name]: "NOT_A_VALUE" } };
    if (schema?.properties) {
      const [field] = Object.keys(schema.properties);
      return { ...base, body: { ...(base.body as object), [field]: { not: ["a", "valid", "value"] } } };
    }
    return { ...base, query: { ...base.query, run_id: undefined, run_uuid: undefined } };
  }

  /** A body over the server's 1 MB limit. */
  oversized(method: string, path: string): BuiltRequest {
    return { method, path, body: { padding: "x".repeat(1_100_000) } };
  }

  hasBody(method: string, path: string): boolean {
    return this.bodySchema(this.operation(method, path)) !== undefined;
  }
}
