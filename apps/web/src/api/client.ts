// The one TrackerClient the UI talks through, the bearer token kept for the browser session, and
// the server's namespace (system tags are `<ns>.user`, `<ns>.parentRunId`, ...).
import { TrackerClient, isTrackerError } from "@tracker-ml/client";
import { fetchEarly, fetchOrEarly } from "./early-answers";

const TOKEN_KEY = "tracker.token";
let client: TrackerClient | undefined;
const listeners = new Set<() => void>();
let authRequired = false;
/** The sign-in session's CSRF token (auth `users`), sent with every request made with the session cookie. */
let csrfToken: string | undefined;
/** Called instead of the token prompt on a 401 while signed in with a session (it expired). */
let onSessionLost: (() => void) | undefined;

/** The namespace the server put in index.html (`tracker` by default, `mlflow` for drop-in use). */
export function namespace(): string {
  const meta = typeof document === "undefined" ? null : document.querySelector('meta[name="tracker-namespace"]');
  return meta?.getAttribute("content") || "tracker";
}

/** The system tag `<ns>.<name>`, e.g. systemTag("user") = "tracker.user". */
export function systemTag(name: string): string {
  return `${namespace()}.${name}`;
}

export function api(): TrackerClient {
  client ??= makeClient(fetchOrEarly);
  return client;
}

/** A client for the page's early requests (see early-answers.ts), whose answers the page's own requests take. */
export function earlyApi(): TrackerClient {
  return makeClient(fetchEarly);
}

function makeClient(fetch: (request: Request) => Promise<Response>): TrackerClient {
  return new TrackerClient({
    baseUrl: window.location.origin,
    token: sessionStorage.getItem(TOKEN_KEY) ?? undefined,
    headers: csrfHeaders(),
    retry: { retries: 1 },
    fetch,
  });
}

/** Subscribes to changes of the authentication state (token asked for, token given). */
export function onAuthChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isAuthRequired(): boolean {
  return authRequired;
}

/** Called with every failure: a 401 makes the UI ask for the token. */
export function noteError(error: unknown): void {
  if (isTrackerError(error, "UNAUTHENTICATED") && onSessionLost) {
    onSessionLost();
    return;
  }
  if (isTrackerError(error, "UNAUTHENTICATED") && !authRequired) {
    authRequired = true;
    for (const listener of listeners) listener();
  }
}

/** Keeps the token for this browser session and rebuilds the client with it. */
export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  client = undefined;
  authRequired = false;
  for (const listener of listeners) listener();
}

/** Headers for plain fetches of the browser endpoints (artifact downloads) outside the client. */
export function authHeaders(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}`, ...csrfHeaders() } : csrfHeaders();
}

/** The header carrying the session's CSRF token, when signed in with a session. */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

/**
 * Signed in with a session (auth `users`): its CSRF token goes with every request from now on, and
 * a 401 calls `lost` instead of asking for a token. `undefined` when signed out or auth is off.
 */
export function setSessionCredentials(session: { csrfToken: string; lost: () => void } | undefined): void {
  csrfToken = session?.csrfToken;
  onSessionLost = session?.lost;
  client = undefined;
}
