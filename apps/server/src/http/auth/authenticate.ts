import type { Request, RequestHandler } from "express";
import type { Services } from "../../core/services.js";
import { hashPassword, VerifiedCredentials, verifyPassword } from "../../core/auth/passwords.js";
import { userOfAccessToken } from "../../core/auth/tokens.js";
import { findUserByName } from "../../store/users.js";
import { bearerAuth, OPEN_PATHS, tokensMatch } from "../security.js";
import { NOT_AUTHENTICATED, refuse, rememberPrincipal } from "./principal.js";
import { clientAddress, ssoSteps, type StepOutcome } from "./sso.js";
import { signInThrottle, tooManyAttempts } from "./throttle.js";

/**
 * Authentication, before any body is read. With auth `none` the optional shared token
 * (TRACKER_AUTH_TOKEN, security.ts) as before. With auth `users`, every request but the health
 * probes names its user, by the first of these that applies:
 * 1. a trusted proxy's user header (`--auth-trusted-header`, only from `--auth-trusted-proxies`; sso.ts);
 * 2. HTTP Basic (MLFLOW_TRACKING_USERNAME / MLFLOW_TRACKING_PASSWORD), slowed after repeated
 *    failures per username and address (throttle.ts);
 * 3. `Authorization: Bearer` with the shared token (acts as an admin), a personal access token
 *    (MLFLOW_TRACKING_TOKEN), or an identity provider's JWT (`--auth-jwt-*`; sso.ts).
 * Anything else is 401 UNAUTHENTICATED with `WWW-Authenticate`, in MLflow's words, or the reason
 * a header or token was refused.
 */
export function authenticate(services: Services): RequestHandler {
  const { config, knex } = services;
  if (config.auth !== "users") return bearerAuth(config.authToken);
  const verified = new VerifiedCredentials();
  const sharedToken = config.authToken;
  const sso = ssoSteps(config, knex);
  const throttle = signInThrottle(knex);
  // An unknown user costs one scrypt too, so that timing does not tell which usernames exist.
  let decoy: Promise<string> | undefined;

  const basic = async (encoded: string, req: Request): Promise<StepOutcome> => {
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) return undefined;
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const row = await findUserByName(knex, username);
    const principal = row && { id: row.id, username: row.username, isAdmin: row.is_admin };
    // Credentials verified before skip the throttle (they are right; no guess is being made).
    if (principal && verified.has(username, password, row.password_hash)) return { principal };
    const attempt = { username, address: clientAddress(req, sso.proxies) };
    const wait = await throttle.retryAfterMs(attempt);
    if (wait > 0) return { retryAfterMs: wait };
    if (!row) {
      decoy ??= hashPassword("decoy password, never matches");
      await verifyPassword(password, await decoy);
    }
    if (!principal || !(await verified.verify(username, password, row.password_hash))) {
      await throttle.failed(attempt);
      return undefined;
    }
    await throttle.succeeded(attempt);
    return { principal };
  };

  const bearer = async (token: string): Promise<StepOutcome> => {
    if (sharedToken && tokensMatch(token, sharedToken))
      return { principal: { id: undefined, username: "", isAdmin: true } };
    const row = await userOfAccessToken(knex, token);
    if (row) return { principal: { id: row.id, username: row.username, isAdmin: row.is_admin } };
    return sso.fromBearer(token);
  };

  return async (req, res, next) => {
    if (OPEN_PATHS.has(req.path)) {
      next();
      return;
    }
    const fromHeader = await sso.fromTrustedHeader(req);
    let outcome: StepOutcome = fromHeader && "principal" in fromHeader ? fromHeader : undefined;
    if (outcome === undefined) {
      const match = /^(Basic|Bearer)[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
      if (match) outcome = await (match[1]!.toLowerCase() === "basic" ? basic(match[2]!, req) : bearer(match[2]!));
    }
    if (outcome && "principal" in outcome) {
      rememberPrincipal(res, outcome.principal);
      next();
      return;
    }
    if (outcome && "retryAfterMs" in outcome) {
      tooManyAttempts(res, outcome.retryAfterMs);
      return;
    }
    res.setHeader("WWW-Authenticate", 'Basic realm="tracker", Bearer realm="tracker"');
    const refusal = outcome ?? fromHeader;
    refuse(res, "UNAUTHENTICATED", refusal && "refused" in refusal ? refusal.refused : NOT_AUTHENTICATED);
  };
}
