import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import type { SpecName } from "./revisions.js";

/**
 * express-openapi-validator builds an operation's request validator on the operation's first
 * request (RequestValidator.buildMiddleware: two Ajv schemas per operation, each over the whole
 * document's paths and components). On a server just started, the web UI's first page paid that
 * inside its requests: in a CPU profile of the runs page's charts-view requests on a fresh server,
 * ~360 of ~650 ms of the process's CPU (quiet machine; issue 31), and its bulk-history requests
 * left the browser ~0.5–1 s late. Building them ahead, in the background right after start-up,
 * takes that out of the first visitor's wait without delaying the start (a server that is never
 * visited pays ~0.2 s of CPU once).
 *
 * The validator is built by passing a stand-in request (no body, no query: it fails validation,
 * which only throws; no handler runs and nothing is logged) through the document's validator
 * steps. Each later request with the same method, path and content type then finds it built.
 */

/** A request whose validator is built ahead: its method and path (no parameters in the path). */
export interface WarmRequest {
  method: "GET" | "POST";
  path: string;
}

/**
 * The requests the web UI sends first on the runs page (the page users open most, and the charts
 * view's first screen: apps/web's views/runs/prefetch-runs.ts and its charts view), as the
 * server sees them (tracker's paths).
 */
export const WEB_UI_FIRST_REQUESTS: readonly WarmRequest[] = [
  { method: "GET", path: "/api/2.0/tracker/session" },
  { method: "POST", path: "/api/2.0/tracker/runs/search-columns" },
  { method: "GET", path: "/api/2.0/tracker/runs/keys" },
  { method: "GET", path: "/api/2.0/tracker/experiments/get" },
  { method: "GET", path: "/api/2.0/tracker/metrics/get-history-bulk-interval" },
  { method: "POST", path: "/api/2.0/tracker/experiments/search-datasets" },
];

/** What the warm-up needs of an app: which document answers a request, and that document's validator steps. */
export interface ValidationOf {
  documentOf(method: string, path: string): SpecName | undefined;
  /** The validator steps (run one after the other as one) of a document, for tracker's paths. */
  steps(spec: SpecName): RequestHandler | undefined;
}

/** Schedules a piece of work for later (one per macrotask, so requests that come meanwhile go first). */
export type Later = (work: () => void) => void;

const nextMacrotask: Later = (work) => {
  setImmediate(work);
};

/** A request as the validator steps read it: method, URL, headers, and an empty query and body. */
function standIn(app: Express, { method, path }: WarmRequest): Request {
  const req = Object.create(app.request) as Request;
  Object.defineProperties(req, {
    method: { value: method, writable: true },
    url: { value: path, writable: true },
    originalUrl: { value: path, writable: true },
    baseUrl: { value: "", writable: true },
    // The app gives every POST this content type before validation (http/app.ts).
    headers: { value: method === "POST" ? { "content-type": "application/json" } : {}, writable: true },
    query: { value: {}, writable: true },
    body: { value: method === "POST" ? {} : undefined, writable: true },
    params: { value: {}, writable: true },
  });
  return req;
}

/**
 * Builds the request validators of `requests` one after the other, each in a macrotask of its own
 * (`later`); resolves when all are built (a request whose validation fails or throws still builds
 * its validator). The function returned stops what has not begun.
 */
export function warmRequestValidators(
  app: Express,
  validation: ValidationOf,
  requests: readonly WarmRequest[] = WEB_UI_FIRST_REQUESTS,
  later: Later = nextMacrotask,
): { done: Promise<void>; stop: () => void } {
  let stopped = false;
  const done = (async () => {
    for (const request of requests) {
      if (stopped) return;
      await new Promise<void>((resolve) => later(resolve));
      if (stopped) return;
      const spec = validation.documentOf(request.method, request.path);
      const steps = spec && validation.steps(spec);
      if (!steps) continue;
      await new Promise<void>((resolve) => {
        const next: NextFunction = () => resolve();
        try {
          const result: unknown = steps(standIn(app, request), {} as Response, next);
          if (result instanceof Promise) result.then(undefined, () => resolve());
        } catch {
          resolve();
        }
      });
    }
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}
