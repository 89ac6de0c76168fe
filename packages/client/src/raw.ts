import createFetchClient, { type Client } from "openapi-fetch";
import type { paths as PathsA } from "./generated/rev-a.js";
import type { paths as PathsB } from "./generated/rev-b.js";
import type { paths as PathsC } from "./generated/rev-c.js";
import { createTransport, type TransportOptions } from "./transport.js";

export interface ClientOptions extends TransportOptions {
  /** URL of the tracker server, e.g. `http://127.0.0.1:5000` (the API prefix is added). */
  baseUrl: string;
  /** Path below the server URL where the API lives (default `/api`; the server also answers `/ajax-api`). */
  apiPrefix?: string;
  /** Bearer token, for a server started with TRACKER_AUTH_TOKEN. */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** The API revisions a tracker server serves: A and B under `2.0/preview/tracker`, C under `2.0/tracker`. */
export type Revision = "a" | "b" | "c";

/** The `paths` type generated from each revision's OpenAPI file. */
export interface RevisionPaths {
  a: PathsA;
  b: PathsB;
  c: PathsC;
}

export type RawClient<R extends Revision = "c"> = Client<RevisionPaths[R]>;

/** Options of the ergonomic clients; a string is taken as the server URL. */
export type TrackerClientOptions = ClientOptions | string;

export function toClientOptions(options: TrackerClientOptions): ClientOptions {
  return typeof options === "string" ? { baseUrl: options } : options;
}

const REVISIONS: readonly Revision[] = ["a", "b", "c"];

/** An openapi-fetch client for the given `paths`, sending through the retrying, timed transport. */
export function createRawClient<Paths extends {}>(options: ClientOptions): Client<Paths> {
  if (typeof options.baseUrl !== "string" || options.baseUrl === "")
    throw new TypeError("baseUrl is required, e.g. http://127.0.0.1:5000");
  const prefix = (options.apiPrefix ?? "/api").replace(/\/+$/, "");
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  return createFetchClient<Paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, "") + (prefix === "" || prefix.startsWith("/") ? prefix : `/${prefix}`),
    headers,
    querySerializer: serializeQuery,
    fetch: createTransport(options),
  });
}

/**
 * Query strings as the server expects them: arrays as repeated keys, and every character outside
 * RFC 3986's unreserved set percent-encoded (encodeURIComponent leaves `!'()*` alone, and the server
 * rejects reserved characters in query values, such as the quotes of a registry search filter).
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      parts.push(`${encodeStrict(key)}=${encodeStrict(String(item))}`);
    }
  }
  return parts.join("&");
}

function encodeStrict(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A raw typed client for one API revision (C when `revision` is omitted): paths, parameters, request
 * bodies and responses come straight from the types generated from that revision's OpenAPI file.
 * Calls answer `{ data, error, response }` as openapi-fetch does; only network errors, timeouts and
 * aborts are thrown (as TrackerError).
 */
export function createClient<R extends Revision = "c">(options: ClientOptions & { revision?: R }): RawClient<R> {
  const revision = options.revision ?? "c";
  if (!REVISIONS.includes(revision))
    throw new TypeError(`revision must be one of ${REVISIONS.join(", ")}, not ${String(revision)}`);
  return createRawClient<RevisionPaths[R]>(options);
}
