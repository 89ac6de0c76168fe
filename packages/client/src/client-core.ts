// What every part of the ergonomic client holds: the raw revision C client and the raw client of
// tracker's extensions, both over the same transport and options.
import type { paths as ExtPaths } from "./generated/ext.js";
import type { paths } from "./generated/rev-c.js";
import { createClient as createExtClient, type ExtClient } from "./ext.js";
import { createRawClient, toClientOptions, type RawClient, type TrackerClientOptions } from "./raw.js";

export type { ExtPaths };

/** What streaming transfers (artifact uploads and downloads) send with: no timeout, no buffering, no retry. */
export interface TransferOptions {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
}

export class ClientCore {
  /** For artifact transfers, which bypass the buffering, timed transport of `raw` and `ext`. */
  readonly transfer: TransferOptions;
  /** The raw revision C client (openapi-fetch, same transport and options). */
  readonly raw: RawClient<"c">;
  /** The raw client of tracker's own operations (spec/ext.yaml; absolute paths). */
  readonly ext: ExtClient;

  constructor(options: TrackerClientOptions) {
    const resolved = toClientOptions(options);
    this.raw = createRawClient<paths>(resolved);
    const { apiPrefix: _ignored, ...rest } = resolved;
    this.ext = createExtClient(rest);
    const headers: Record<string, string> = { ...resolved.headers };
    if (resolved.token !== undefined) headers.Authorization = `Bearer ${resolved.token}`;
    const send = resolved.fetch;
    this.transfer = {
      baseUrl: resolved.baseUrl.replace(/\/+$/, ""),
      headers,
      fetch: send ?? ((request) => globalThis.fetch(request)),
    };
  }
}
