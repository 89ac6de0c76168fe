import type { TrackerClient } from "@tracker-ml/client";
import type { ExtClient } from "@tracker-ml/client/ext";
import type { RevCClient } from "@tracker-ml/client/rev-c";
import type { ServerDatabase } from "@tracker/testing";

/**
 * One scenario of the extensions' contract test (src/ext-contract.test.ts): a module in
 * src/ext-scenarios/ named `<concern>.scenario.ts` exporting `scenario`. Every request it sends
 * through the clients below is validated against spec/ext.yaml (or rev-c.yaml for revision C paths)
 * and counted in the coverage table; together the scenarios must exercise every ext operation with
 * every status it documents (500 and 503 exempt).
 */
export interface ExtContext {
  kind: ServerDatabase;
  /** URL of a server without authentication. */
  url: string;
  /** URL of a server started with TRACKER_AUTH_TOKEN = AUTH_TOKEN. */
  authUrl: string;
  /** URL of a server whose artifacts destination is S3 (only when TEST_S3_URL is set). */
  s3Url?: string;
  /** `url` when its server keeps artifacts in a local folder; absent when it keeps them on S3. */
  folderUrl?: string;
  /** Raw ext client on `url`, recorded. */
  ext: ExtClient;
  /** Raw ext client on `authUrl` without a token (for the 401 answers), recorded. */
  unauthenticated: ExtClient;
  /** Raw revision C client on `url` (set-up: experiments, runs, models), recorded. */
  c: RevCClient;
  /** The ergonomic client on `url`; its calls are recorded against ext.yaml or rev-c.yaml by path. */
  client: TrackerClient;
  /** A recording fetch for hand-made requests (streams, raw bodies, headers) against ext.yaml paths. */
  fetch: typeof fetch;
}

export interface ExtScenario {
  /** Test title. */
  name: string;
  run(ctx: ExtContext): Promise<void>;
}
