// The web UI's sign-in session (server started with `--auth users`): whether auth is on, who is
import { useSyncExternalStore } from "react";
// signed in, and the typed client of spec/auth.yaml (users, permissions, tokens, sessions).
import { createClient, expectData, type AuthClient, type components } from "@tracker-ml/client/auth";
import { csrfHeaders, setSessionCredentials } from "./client";

export type SessionUser = components["schemas"]["UserSummary"];

export type SessionState =
  | { status: "loading" }
  /** Users and permissions are off (or only the shared TRACKER_AUTH_TOKEN guards the server). */
  | { status: "off" }
  | { status: "signed-out"; reason?: string }
  | { status: "signed-in"; user: SessionUser };

let state: SessionState = { status: "loading" };
const listeners = new Set<() => void>();

export function sessionState(): SessionState {
  return state;
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setState(next: SessionState, csrfToken?: string): void {
  state = next;
  setSessionCredentials(
    next.status === "signed-in" && csrfToken
      ? { csrfToken, lost: () => setState({ status: "signed-out", reason: "Your session has ended: sign in again." }) }
      : undefined,
  );
  for (const listener of listeners) listener();
}

/** The client of spec/auth.yaml, with the session's CSRF token. */
export function authApi(): AuthClient {
  return createClient({ baseUrl: window.location.origin, headers: csrfHeaders(), retry: { retries: 1 } });
}

const SESSION_PATH = "/api/2.0/tracker/session";

/** Asks the server whether users are on and who is signed in. */
export async function loadSession(): Promise<void> {
  const { data, response } = await authApi().GET(SESSION_PATH);
  // 401: only the shared TRACKER_AUTH_TOKEN guards the server (the token prompt asks for it); 404: an
  // older server without sessions.
  if (response.status === 404 || response.status === 401 || data?.auth === "none") return setState({ status: "off" });
  if (!data) throw new Error(`The server answered ${response.status} to ${SESSION_PATH}`);
  if (data.user && data.csrf_token) setState({ status: "signed-in", user: data.user }, data.csrf_token);
  else setState({ status: "signed-out" });
}

let started: Promise<void> | undefined;

/** The session's first load, sent once (main.tsx starts it before the first render; the session gate waits for it). */
export function startSession(): Promise<void> {
  started ??= loadSession();
  return started;
}

export async function signIn(username: string, password: string): Promise<void> {
  const data = await expectData(authApi().POST("/api/2.0/tracker/session/sign-in", { body: { username, password } }));
  if (!data.user || !data.csrf_token) throw new Error("The server started no session");
  setState({ status: "signed-in", user: data.user }, data.csrf_token);
}

export async function signOut(): Promise<void> {
  await expectData(authApi().POST("/api/2.0/tracker/session/sign-out"));
  setState({ status: "signed-out" });
}

/** The signed-in user, or undefined (signed out, or users are off). */
export function useSessionUser(): SessionUser | undefined {
  const current = useSyncExternalStore(onSessionChange, sessionState);
  return current.status === "signed-in" ? current.user : undefined;
}
