import type { Request, RequestHandler, Response } from "express";
import type { Services } from "../../core/services.js";
import { csrfTokenOf, webSessionUser } from "../../core/auth/web-sessions.js";
import { tokensMatch } from "../security.js";
import { refuse, rememberPrincipal } from "./principal.js";

/**
 * The web UI's sign-in sessions in the authentication chain (auth `users`): a request without an
 * `Authorization` header but with a valid session cookie acts as the session's user, as a Basic or
 * Bearer credential does; a write made that way needs the session's CSRF token in `X-CSRF-Token`
 * (403 otherwise). Every other request goes to the Basic/Bearer authenticator it wraps, except the
 * session operations themselves (sign-in, sign-out, the session's state), which need no
 * credentials. A browser's fetches and subresource loads that end in 401 get a challenge browsers
 * do not answer with their Basic-auth prompt; navigations and non-browser clients keep MLflow's.
 */

export const SESSION_COOKIE = "tracker_session";
export const CSRF_HEADER = "x-csrf-token";
export const CSRF_REFUSED =
  "Missing or wrong CSRF token: a write authenticated by the session cookie needs the header X-CSRF-Token (from session/sign-in or GET session)";

const SIGN_IN = "/api/2.0/tracker/session/sign-in";
/** The session operations (canonical paths): they answer without credentials. */
const SESSION_PATHS: ReadonlySet<string> = new Set([
  "/api/2.0/tracker/session",
  SIGN_IN,
  "/api/2.0/tracker/session/sign-out",
]);
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

export interface WebSessionState {
  id: string;
  expiresAt: number;
}

/** The request's web session, when its cookie authenticated it. */
export function webSessionOf(res: Response): WebSessionState | undefined {
  return res.locals.webSession as WebSessionState | undefined;
}

/** The value of one cookie of a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the request came over HTTPS (the connection, or a proxy's `X-Forwarded-Proto`). */
export function cameOverHttps(req: Request): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  // Trusting the header can only make the cookie stricter (Secure), never weaker.
  return first === "https";
}

/** A browser's fetch or subresource load (not a navigation): `Sec-Fetch-Dest` other than a document. */
function browserSubrequest(req: Request): boolean {
  const dest = req.headers["sec-fetch-dest"];
  return typeof dest === "string" && dest !== "document" && dest !== "iframe";
}

/** Replaces the Basic/Bearer challenge of a 401 by one browsers do not prompt for. */
function withoutBasicPrompt(res: Response): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: number | string | readonly string[]) =>
    name.toLowerCase() === "www-authenticate"
      ? setHeader(name, 'Session realm="tracker"')
      : setHeader(name, value)) as Response["setHeader"];
}

/** Wraps the Basic/Bearer authenticator with the web UI's session cookie (auth `users` only). */
export function withWebSessions(services: Services, authenticateOthers: RequestHandler): RequestHandler {
  if (services.config.auth !== "users") return authenticateOthers;
  const { knex } = services;
  return async (req, res, next) => {
    if (req.headers.authorization === undefined && req.path !== SIGN_IN) {
      const id = cookieValue(req.headers.cookie, SESSION_COOKIE);
      const session = id === undefined ? undefined : await webSessionUser(knex, id);
      if (id !== undefined && session !== undefined) {
        const given = req.headers[CSRF_HEADER];
        if (!SAFE_METHODS.has(req.method) && !(typeof given === "string" && tokensMatch(given, csrfTokenOf(id)))) {
          refuse(res, "PERMISSION_DENIED", CSRF_REFUSED);
          return;
        }
        rememberPrincipal(res, session.user);
        res.locals.webSession = { id, expiresAt: session.expiresAt } satisfies WebSessionState;
        next();
        return;
      }
    }
    if (SESSION_PATHS.has(req.path) && req.headers.authorization === undefined) {
      next();
      return;
    }
    if (browserSubrequest(req)) withoutBasicPrompt(res);
    authenticateOthers(req, res, next);
  };
}
