/**
 * The raw typed client for revision C of the tracker API: an openapi-fetch client whose paths,
 * parameters, request bodies and responses are the types generated from spec/rev-c.yaml.
 *
 * @example
 * import { createClient } from "@tracker-ml/client/rev-c";
 * const api = createClient({ baseUrl: "http://127.0.0.1:5000" });
 */
import type { Client } from "openapi-fetch";
import type { paths } from "./generated/rev-c.js";
import { createRawClient, type ClientOptions } from "./raw.js";

export type { components, operations, paths } from "./generated/rev-c.js";
export type { ClientOptions } from "./raw.js";
export { TrackerError } from "./errors.js";

export type RevCClient = Client<paths>;

/** An openapi-fetch client for revision C, sending through the retrying, timed transport. */
export function createClient(options: ClientOptions): RevCClient {
  return createRawClient<paths>(options);
}
