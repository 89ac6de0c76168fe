import type { Request, Response } from "express";
import { TrackerError } from "../../core/errors.js";
import { endWebSession, startWebSession, userOfPassword } from "../../core/auth/web-sessions.js";
import { listPermissions } from "../../core/auth/users.js";
import type { Services } from "../../core/services.js";
import { handlerTable } from "../operation-handler.js";
import { cameOverHttps, cookieValue, SESSION_COOKIE, webSessionOf } from "./session.js";
import { principalOf } from "./principal.js";
import { csrfTokenOf } from "../../core/auth/web-sessions.js";
import { TrustedProxies } from "../../config/trusted-proxies.js";
import { clientAddress } from "./sso.js";
import { signInThrottle, tooManyAttempts } from "./throttle.js";

/**
 * spec/auth.yaml's web UI operations: sign-in, sign-out and the session's state (session.ts puts
 * the cookie in the authentication chain), and the permission lists of the UI's permissions panel.
 * With users and permissions off they do not exist (404 ENDPOINT_NOT_FOUND), except the session
 * state, which then says `auth: none`.
 */

function requireUsers(services: Services): void {
  if (services.config.auth !== "users")
    throw new TrackerError(
      "ENDPOINT_NOT_FOUND",
      "Users and permissions are off: start the server with --auth users (or --app-name basic-auth)",
    );
}

const cookieOptions = (req: Request) =>
  ({ httpOnly: true, sameSite: "lax", secure: cameOverHttps(req), path: "/" }) as const;

export const webSessionHandlers = handlerTable({
  async getWebSession({ services, res }) {
    // Answered with auth off too, so that the web UI learns it without a failed request.
    if (services.config.auth !== "users") return { auth: "none" as const };
    const session = webSessionOf(res);
    const principal = principalOf(res);
    if (!session || !principal || principal.id === undefined) return { auth: "users" as const };
    return {
      auth: "users" as const,
      user: { id: principal.id, username: principal.username, is_admin: principal.isAdmin },
      csrf_token: csrfTokenOf(session.id),
      expires_at: session.expiresAt,
    };
  },

  async signIn({ input, services, req, res }) {
    requireUsers(services);
    // Slowed as HTTP Basic is (throttle.ts): per username and per client address, before the password is checked.
    const throttle = signInThrottle(services.knex);
    const attempt = {
      username: input.username,
      address: clientAddress(req, new TrustedProxies(services.config.authTrustedProxies)),
    };
    const wait = await throttle.retryAfterMs(attempt);
    if (wait > 0) {
      tooManyAttempts(res as Response, wait);
      return undefined;
    }
    const user = await userOfPassword(services.knex, input.username, input.password);
    if (!user) {
      await throttle.failed(attempt);
      throw new TrackerError("UNAUTHENTICATED", "Wrong username or password");
    }
    await throttle.succeeded(attempt);
    const session = await startWebSession(services.knex, user, services.config.sessionLifetimeMs);
    (res as Response).cookie(SESSION_COOKIE, session.id, {
      ...cookieOptions(req),
      expires: new Date(session.expiresAt),
    });
    return {
      auth: "users" as const,
      user: { id: user.id, username: user.username, is_admin: user.isAdmin },
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
    };
  },

  async signOut({ services, req, res }) {
    requireUsers(services);
    const id = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (id !== undefined) await endWebSession(services.knex, id);
    res.clearCookie(SESSION_COOKIE, cookieOptions(req));
    return {};
  },

  async listExperimentPermissions({ input, services }) {
    requireUsers(services);
    return { permissions: await listPermissions(services.knex, "experiment", input.experiment_id) };
  },

  async listRegisteredModelPermissions({ input, services }) {
    requireUsers(services);
    return { permissions: await listPermissions(services.knex, "registered_model", input.name) };
  },
});
