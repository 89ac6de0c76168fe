import type { RequestHandler } from "express";
import type { Services } from "../../core/services.js";
import { hashPassword, VerifiedCredentials, verifyPassword } from "../../core/auth/passwords.js";
import { userOfAccessToken } from "../../core/auth/tokens.js";
import { findUserByName } from "../../store/users.js";
import { bearerAuth, OPEN_PATHS, tokensMatch } from "../security.js";
import { NOT_AUTHENTICATED, refuse, rememberPrincipal, type Principal } from "./principal.js";

/**
 * Authentication, before any body is read. With auth `none` the optional shared token
 * (TRACKER_AUTH_TOKEN, security.ts) as before. With auth `users`, every request but the health
 * probes names its user with HTTP Basic (MLFLOW_TRACKING_USERNAME / MLFLOW_TRACKING_PASSWORD) or
 * `Authorization: Bearer <personal access token>` (MLFLOW_TRACKING_TOKEN); the shared token, when
 * configured too, still works and acts as an admin. Anything else is 401 UNAUTHENTICATED with
 * `WWW-Authenticate`, in MLflow's words.
 */
export function authenticate(services: Services): RequestHandler {
  const { config, knex } = services;
  if (config.auth !== "users") return bearerAuth(config.authToken);
  const verified = new VerifiedCredentials();
  const sharedToken = config.authToken;
  // An unknown user costs one scrypt too, so that timing does not tell which usernames exist.
  let decoy: Promise<string> | undefined;

  const basic = async (encoded: string): Promise<Principal | undefined> => {
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) return undefined;
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const row = await findUserByName(knex, username);
    if (!row) {
      decoy ??= hashPassword("decoy password, never matches");
      await verifyPassword(password, await decoy);
      return undefined;
    }
    if (!(await verified.verify(username, password, row.password_hash))) return undefined;
    return { id: row.id, username: row.username, isAdmin: row.is_admin };
  };

  const bearer = async (token: string): Promise<Principal | undefined> => {
    if (sharedToken && tokensMatch(token, sharedToken)) return { id: undefined, username: "", isAdmin: true };
    const row = await userOfAccessToken(knex, token);
    return row && { id: row.id, username: row.username, isAdmin: row.is_admin };
  };

  return async (req, res, next) => {
    if (OPEN_PATHS.has(req.path)) {
      next();
      return;
    }
    const match = /^(Basic|Bearer)[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
    const principal = match
      ? await (match[1]!.toLowerCase() === "basic" ? basic(match[2]!) : bearer(match[2]!))
      : undefined;
    if (principal) {
      rememberPrincipal(res, principal);
      next();
      return;
    }
    res.setHeader("WWW-Authenticate", 'Basic realm="tracker", Bearer realm="tracker"');
    refuse(res, "UNAUTHENTICATED", NOT_AUTHENTICATED);
  };
}
