import type { SpecName } from "@tracker/spec";
import { SpecValidator, type OperationRef } from "./spec-validator.js";

/** One exchange seen by the recording fetch. */
export interface Exchange {
  revision: SpecName;
  operationId: string;
  method: string;
  path: string;
  status: number;
  errorCode?: string;
  violations: string[];
}

/**
 * A fetch for the client that passes every request through, reads the answer, validates it
 * against the document's spec (a revision's, or ext.yaml's) and records it for the coverage table.
 */
export class Recorder {
  /**
   * `route` may send a request elsewhere before it goes out (see round-robin.ts); the exchange is
   * recorded by its path, wherever it went.
   */
  constructor(private readonly route: (request: Request) => Promise<Request> = async (r) => r) {}

  readonly exchanges: Exchange[] = [];
  readonly validators: Record<SpecName, SpecValidator> = {
    a: new SpecValidator("a"),
    b: new SpecValidator("b"),
    c: new SpecValidator("c"),
    ext: new SpecValidator("ext"),
    auth: new SpecValidator("auth"),
  };

  fetchFor(revision: SpecName): typeof fetch {
    return async (input, init) => {
      const request = await this.route(new Request(input as ConstructorParameters<typeof Request>[0], init));
      const response = await fetch(request);
      const url = new URL(request.url);
      const prefix = this.validators[revision].prefix;
      const path = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
      const op = this.validators[revision].find(request.method, path);
      const contentType = response.headers.get("content-type") ?? "";
      const text = await response.clone().text();
      let body: unknown = text;
      if (contentType.includes("json")) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const violations = op
        ? this.validators[revision].validate(request.method, op.path, response.status, contentType, body)
        : [`unknown operation ${request.method} ${path}`];
      const errorCode =
        typeof body === "object" && body !== null ? (body as { error_code?: string }).error_code : undefined;
      this.exchanges.push({
        revision,
        operationId: op?.operationId ?? "?",
        method: request.method,
        path: op?.path ?? path,
        status: response.status,
        errorCode,
        violations,
      });
      return response;
    };
  }

  /**
   * A fetch for the ergonomic client, whose calls go to revision C or to ext.yaml: each request is
   * recorded against ext.yaml when one of its operations has that path, else against revision C.
   */
  fetchByPath(): typeof fetch {
    const ext = this.fetchFor("ext");
    const c = this.fetchFor("c");
    return async (input, init) => {
      const request = new Request(input as ConstructorParameters<typeof Request>[0], init);
      const pathname = new URL(request.url).pathname;
      return (this.validators.ext.find(request.method, pathname) ? ext : c)(request);
    };
  }

  violations(): string[] {
    return this.exchanges.flatMap((e) =>
      e.violations.map((v) => `${e.revision.toUpperCase()} ${e.method} ${e.path} -> ${e.status}: ${v}`),
    );
  }

  /** Every operation of the given documents (the three revisions unless told otherwise). */
  operations(specs: readonly SpecName[] = ["a", "b", "c"]): OperationRef[] {
    return specs.flatMap((r) => this.validators[r].operations());
  }
}
