import type { Request } from "express";
import type { Knex } from "knex";
import type { TrackerConfig } from "../../config/config.js";
import { recordChange } from "../../core/auth/audit.js";
import { jwtVerifier, looksLikeJwt } from "../../core/auth/jwt.js";
import { userForSignOn } from "../../core/auth/sso-users.js";
import type { Principal } from "./principal.js";
import { TrustedProxies } from "../../config/trusted-proxies.js";

/**
 * Single sign-on steps of the authentication chain (authenticate.ts), beyond MLflow:
 * - a user header set by a reverse proxy that has signed the user in (oauth2-proxy and most
 *   identity-aware proxies: `X-Forwarded-User`, `X-Forwarded-Email`), believed only on connections
 *   from `--auth-trusted-proxies`. From any other address the header is ignored (as if absent):
 *   the request must then authenticate otherwise, and its 401 says why the header did not count;
 * - Bearer JWTs of an identity provider (core/auth/jwt.ts).
 * Either names a user; an unknown name is created, not admin (core/auth/sso-users.ts).
 */

/**
 * What one step of the chain concluded: a principal, a refusal with its reason, a wait imposed by
 * the sign-in throttle, or nothing to say.
 */
export type StepOutcome = { principal: Principal } | { refused: string } | { retryAfterMs: number } | undefined;

const asPrincipal = (row: { id: number; username: string; is_admin: boolean }): Principal => ({
  id: row.id,
  username: row.username,
  isAdmin: row.is_admin,
});

async function signedOn(db: Knex, username: string, via: string): Promise<Principal> {
  const { row, created } = await userForSignOn(db, username);
  if (created)
    await recordChange(db, { actor: "sso", action: "createUser", target: `user:${username}`, details: { via } });
  return asPrincipal(row);
}

/** The client's address: the socket's, or, behind a trusted proxy, the last hop of X-Forwarded-For. */
export function clientAddress(req: Request, proxies: TrustedProxies): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  if (!proxies.trusts(socket)) return socket;
  const forwarded = (req.headers["x-forwarded-for"] ?? "")
    .toString()
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  return forwarded.at(-1) ?? socket;
}

export interface SsoSteps {
  proxies: TrustedProxies;
  /** The trusted header's principal; a refusal when the header came from an untrusted address. */
  fromTrustedHeader(req: Request): Promise<StepOutcome>;
  /** A JWT's principal or refusal; undefined when JWTs are off or the token is not one. */
  fromBearer(token: string): Promise<StepOutcome>;
}

export function ssoSteps(config: TrackerConfig, db: Knex): SsoSteps {
  const proxies = new TrustedProxies(config.authTrustedProxies);
  const header = config.authTrustedHeader?.toLowerCase();
  const verify = config.authJwt === undefined ? undefined : jwtVerifier(config.authJwt);
  return {
    proxies,
    async fromTrustedHeader(req) {
      if (header === undefined) return undefined;
      const raw = req.headers[header];
      const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
      if (!value) return undefined;
      const address = req.socket.remoteAddress;
      if (!proxies.trusts(address))
        return {
          refused: `The ${config.authTrustedHeader} header was ignored: ${address ?? "this address"} is not one of the trusted proxies (--auth-trusted-proxies).`,
        };
      return { principal: await signedOn(db, value, "header") };
    },
    async fromBearer(token) {
      if (verify === undefined || !looksLikeJwt(token)) return undefined;
      const checked = await verify(token);
      if ("error" in checked) return { refused: `Bearer token refused: ${checked.error}.` };
      return { principal: await signedOn(db, checked.username, "jwt") };
    },
  };
}
