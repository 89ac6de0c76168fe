/**
 * The raw typed client for users, permissions and personal access tokens (spec/auth.yaml): MLflow's
 * basic-auth REST API and tracker's tokens, on a server started with `--auth users`. Its paths are
 * absolute (`/api/2.0/tracker/users/create`, ...), as ext.yaml's. Give credentials with `headers`
 * (`Authorization: Basic ...` or `Bearer <token>`).
 *
 * @example
 * import { createClient } from "@tracker-ml/client/auth";
 * const auth = createClient({ baseUrl: "http://127.0.0.1:5000", headers: { authorization: `Bearer ${token}` } });
 * const { data } = await auth.GET("/api/2.0/tracker/users/current");
 */
import type { Client } from "openapi-fetch";
import type { paths } from "./generated/auth.js";
import { createRawClient, type ClientOptions } from "./raw.js";

export type { components, operations, paths } from "./generated/auth.js";
export type { ClientOptions } from "./raw.js";
export { TrackerError } from "./errors.js";

export type AuthClient = Client<paths>;

/** An openapi-fetch client for spec/auth.yaml, sending through the retrying, timed transport. */
export function createClient(options: Omit<ClientOptions, "apiPrefix">): AuthClient {
  return createRawClient<paths>({ ...options, apiPrefix: "" });
}
export { expectData, expectOk } from "./response.js";
