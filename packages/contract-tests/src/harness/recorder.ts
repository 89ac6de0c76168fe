import type { Revision } from "@tracker/spec";
import { SpecValidator, type OperationRef } from "./spec-validator.js";

/** One exchange seen by the recording fetch. */
export interface Exchange {
  revision: Revision;
  operationId: string;
  method: string;
  path: string;
  status: number;
  errorCode?: string;
  violations: string[];
}

export const API_PREFIX = "/api";

/**
 * A fetch for the client that passes every request through, reads the answer, validates it
 * against the revision's spec and records it for the coverage table.
 */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly validators: Record<Revision, SpecValidator> = { a: new SpecValidator("a"), b: new SpecValidator("b"), c: new SpecValidator("c") };

  fetchFor(revision: Revision): typeof fetch {
    return async (input, init) => {
      const request = new Request(input as ConstructorParameters<typeof Request>[0], init);
      const response = await fetch(request);
      const url = new URL(request.url);
      const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
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
      const violations = op ? this.validators[revision].validate(request.method, path, response.status, contentType, body) : [`unknown operation ${request.method} ${path}`];
      const errorCode = typeof body === "object" && body !== null ? (body as { error_code?: string }).error_code : undefined;
      this.exchanges.push({ revision, operationId: op?.operationId ?? "?", method: request.method, path, status: response.status, errorCode, violations });
      return response;
    };
  }

  violations(): string[] {
    return this.exchanges.flatMap((e) => e.violations.map((v) => `${e.revision.toUpperCase()} ${e.method} ${e.path} -> ${e.status}: ${v}`));
  }

  operations(): OperationRef[] {
    return (["a", "b", "c"] as const).flatMap((r) => this.validators[r].operations());
  }
}
