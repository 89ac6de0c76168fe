/**
 * The raw typed client for revision B of the tracker API: an openapi-fetch client whose paths,
 * parameters, request bodies and responses are the types generated from spec/rev-b.yaml.
 *
 * @example
 * import { createClient } from "@tracker-ml/client/rev-b";
 * const api = createClient({ baseUrl: "http://127.0.0.1:5000" });
 */
import type { Client } from "openapi-fetch";
import type { paths } from "./generated/rev-b.js";
import { createRawClient, type ClientOptions } from "./raw.js";

export type { components, operations, paths } from "./generated/rev-b.js";
export type { ClientOptions } from "./raw.js";
export { TrackerError } from "./errors.js";

export type RevBClient = Client<paths>;

/** An openapi-fetch client for revision B, sending through the retrying, timed transport. */
export function createClient(options: ClientOptions): RevBClient {
  return createRawClient<paths>(options);
}
