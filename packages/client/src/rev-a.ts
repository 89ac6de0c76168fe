/**
 * The raw typed client for revision A of the tracker API: an openapi-fetch client whose paths,
 * parameters, request bodies and responses are the types generated from spec/rev-a.yaml.
 *
 * @example
 * import { createClient } from "@tracker-ml/client/rev-a";
 * const api = createClient({ baseUrl: "http://127.0.0.1:5000" });
 */
import type { Client } from "openapi-fetch";
import type { paths } from "./generated/rev-a.js";
import { createRawClient, type ClientOptions } from "./raw.js";

export type { components, operations, paths } from "./generated/rev-a.js";
export type { ClientOptions } from "./raw.js";
export { TrackerError } from "./errors.js";

export type RevAClient = Client<paths>;

/** An openapi-fetch client for revision A, sending through the retrying, timed transport. */
export function createClient(options: ClientOptions): RevAClient {
  return createRawClient<paths>(options);
}
