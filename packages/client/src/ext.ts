/**
 * The raw typed client for tracker's own operations beyond revisions A-C (spec/ext.yaml): an
 * openapi-fetch client whose paths are absolute (`/api/2.0/...`, `/get-artifact`, ...), so it is
 * created without the `/api` prefix the revision clients add.
 *
 * @example
 * import { createClient } from "@tracker-ml/client/ext";
 * const ext = createClient({ baseUrl: "http://127.0.0.1:5000" });
 * const { data } = await ext.GET("/api/2.0/tracker/server-info");
 */
import type { Client } from "openapi-fetch";
import type { paths } from "./generated/ext.js";
import { createRawClient, type ClientOptions } from "./raw.js";

export type { components, operations, paths } from "./generated/ext.js";
export type { ClientOptions } from "./raw.js";
export { TrackerError } from "./errors.js";

export type ExtClient = Client<paths>;

/** An openapi-fetch client for tracker's extensions, sending through the retrying, timed transport. */
export function createClient(options: Omit<ClientOptions, "apiPrefix">): ExtClient {
  return createRawClient<paths>({ ...options, apiPrefix: "" });
}
