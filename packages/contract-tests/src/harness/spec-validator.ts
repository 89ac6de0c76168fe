import fs from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { bundledSpecFile, type SpecName } from "@tracker/spec";

/**
 * Validates answers against a document's bundled OpenAPI file (a revision's, or ext.yaml's) with
 * Ajv: a validator independent of the server's own (express-openapi-validator).
 */

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
type Method = (typeof METHODS)[number];

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  servers?: Array<{ url: string }>;
  paths: Record<string, Partial<Record<Method, OperationObject>>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface OperationRef {
  revision: SpecName;
  method: string;
  path: string;
  operationId: string;
  /** Statuses the spec documents for the operation. */
  statuses: string[];
}

function templatePattern(template: string, lastSpansSegments = true): RegExp {
  const parts = template.split(/(\{[^}]+\})/).filter((p) => p !== "");
  const source = parts
    .map((part, i) =>
      part.startsWith("{")
        ? i === parts.length - 1 && lastSpansSegments
          ? ".+"
          : "[^/]+"
        : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export class SpecValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly doc: OpenApiDocument;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly revision: SpecName) {
    this.doc = JSON.parse(fs.readFileSync(bundledSpecFile(revision), "utf8")) as OpenApiDocument;
    addFormats(this.ajv);
    for (const format of ["int64", "int32", "float", "double"])
      this.ajv.addFormat(format, { type: "number", validate: () => true });
    this.ajv.addSchema(this.doc as object, "spec");
  }

  /** Path prefix of the document's server (`/api` for the revisions, none for ext.yaml). */
  get prefix(): string {
    return (this.doc.servers?.[0]?.url ?? "/api").replace(/\/$/, "");
  }

  operations(): OperationRef[] {
    const out: OperationRef[] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op)
          out.push({
            revision: this.revision,
            method: method.toUpperCase(),
            path,
            operationId: op.operationId,
            statuses: Object.keys(op.responses),
          });
      }
    }
    return out;
  }

  /**
   * The operation answering a concrete request path: templated segments (`{name}`) match one segment,
   * a template's last one matches the rest of the path (artifact paths have slashes).
   */
  find(method: string, path: string): OperationRef | undefined {
    const candidates = this.operations().filter((op) => op.method === method.toUpperCase());
    // An exact path, then a template whose parameters are one segment each (so that
    // `/logged-models/{model_id}/tags` is not taken for `/logged-models/{model_id}`), then one whose
    // last parameter spans segments (`{artifact_path}`).
    return (
      candidates.find((op) => op.path === path) ??
      candidates.find((op) => templatePattern(op.path, false).test(path)) ??
      candidates.find((op) => templatePattern(op.path).test(path))
    );
  }

  /** Errors of a JSON answer against the documented response of that status (empty: valid). */
  validate(method: string, path: string, status: number, contentType: string, body: unknown): string[] {
    const op = this.doc.paths[path]?.[method.toLowerCase() as Method];
    if (!op)
      return [
        `${method} ${path} is not an operation of ${this.revision === "ext" ? "ext.yaml" : `revision ${this.revision.toUpperCase()}`}`,
      ];
    const response = op.responses[String(status)];
    if (!response) return [`status ${status} is not documented for ${op.operationId}`];
    const pointer = response.$ref
      ? `${response.$ref.slice(1)}`
      : `/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${status}`;
    const resolved = response.$ref ? this.resolve(response.$ref) : response;
    const mediaTypes = Object.keys(resolved.content ?? {});
    if (mediaTypes.length === 0) return [];
    const mediaType =
      mediaTypes.find((m) => contentType.startsWith(m)) ??
      (contentType.includes("json") ? mediaTypes.find((m) => m.includes("json")) : undefined) ??
      mediaTypes.find((m) => m === "*/*");
    if (!mediaType)
      return [
        `content type ${contentType} is not documented for ${op.operationId} ${status} (${mediaTypes.join(", ")})`,
      ];
    if (!mediaType.includes("json")) return [];
    return this.errorsOf(
      `spec#${pointer}/content/${escapePointer(mediaType)}/schema`,
      body,
      `${op.operationId} ${status}`,
    );
  }

  /**
   * Errors of a value against a schema of the document's `components.schemas` (empty: valid), for parts of
   * answers that another document's operation carries (such as `run.outputs` of runs/get under MLflow's paths).
   */
  validateSchema(name: string, value: unknown): string[] {
    if (!this.doc.components?.schemas?.[name]) return [`${name} is not a schema of ${this.revision}`];
    return this.errorsOf(`spec#/components/schemas/${escapePointer(name)}`, value, name);
  }

  private errorsOf(schemaRef: string, value: unknown, label: string): string[] {
    let validate = this.compiled.get(schemaRef);
    if (!validate) {
      validate = this.ajv.compile({ $ref: schemaRef });
      this.compiled.set(schemaRef, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${label}: ${e.instancePath || "(body)"} ${e.message ?? "invalid"}`);
  }

  private resolve(ref: string): ResponseObject {
    let node: unknown = this.doc;
    for (const part of ref.replace(/^#\//, "").split("/"))
      node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    return node as ResponseObject;
  }
}
