// What every part of the ergonomic client holds: the raw revision C client and the raw client of
// tracker's extensions, both over the same transport and options.
import type { paths as ExtPaths } from "./generated/ext.js";
import type { paths } from "./generated/rev-c.js";
import { createClient as createExtClient, type ExtClient } from "./ext.js";
import { createRawClient, toClientOptions, type RawClient, type TrackerClientOptions } from "./raw.js";

export type { ExtPaths };

export class ClientCore {
  /** The raw revision C client (openapi-fetch, same transport and options). */
  readonly raw: RawClient<"c">;
  /** The raw client of tracker's own operations (spec/ext.yaml; absolute paths). */
  readonly ext: ExtClient;

  constructor(options: TrackerClientOptions) {
    const resolved = toClientOptions(options);
    this.raw = createRawClient<paths>(resolved);
    const { apiPrefix: _ignored, ...rest } = resolved;
    this.ext = createExtClient(rest);
  }
}
