import { afterEach, describe, expect, it, vi } from "vitest";
import { csrfHeaders, noteError } from "./client";
import { loadSession, sessionState, signIn, signOut } from "./session";
import { TrackerError } from "@tracker-ml/client";

/** The UI's session state, against a stubbed server. */

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function serve(answers: Record<string, Response | (() => Response)>) {
  const seen: Array<{ url: string; headers: Headers }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: Request | string) => {
      const request = input instanceof Request ? input : new Request(input);
      seen.push({ url: new URL(request.url).pathname, headers: request.headers });
      const answer = answers[new URL(request.url).pathname];
      if (!answer) return json(404, { error_code: "ENDPOINT_NOT_FOUND", message: "no" });
      return typeof answer === "function" ? answer() : answer.clone();
    }),
  );
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const USER = { id: 2, username: "alice", is_admin: false };

describe("the web UI's session", () => {
  it("is off when the server says auth is none, or answers 401 (shared token)", async () => {
    serve({ "/api/2.0/tracker/session": json(200, { auth: "none" }) });
    await loadSession();
    expect(sessionState()).toEqual({ status: "off" });
    serve({ "/api/2.0/tracker/session": json(401, { error_code: "UNAUTHENTICATED", message: "token" }) });
    await loadSession();
    expect(sessionState()).toEqual({ status: "off" });
  });

  it("signs in, sends the CSRF token from then on, and signs out", async () => {
    serve({ "/api/2.0/tracker/session": json(200, { auth: "users" }) });
    await loadSession();
    expect(sessionState()).toEqual({ status: "signed-out" });
    expect(csrfHeaders()).toEqual({});
    const seen = serve({
      "/api/2.0/tracker/session/sign-in": json(200, { auth: "users", user: USER, csrf_token: "c5rf", expires_at: 1 }),
      "/api/2.0/tracker/session/sign-out": json(200, {}),
    });
    await signIn("alice", "alice-password-123");
    expect(sessionState()).toEqual({ status: "signed-in", user: USER });
    expect(csrfHeaders()).toEqual({ "X-CSRF-Token": "c5rf" });
    await signOut();
    expect(seen.at(-1)?.headers.get("x-csrf-token")).toBe("c5rf");
    expect(sessionState()).toEqual({ status: "signed-out" });
    expect(csrfHeaders()).toEqual({});
  });

  it("goes back to the sign-in page when the server no longer knows the session", async () => {
    serve({ "/api/2.0/tracker/session": json(200, { auth: "users", user: USER, csrf_token: "t", expires_at: 1 }) });
    await loadSession();
    expect(sessionState().status).toBe("signed-in");
    noteError(new TrackerError({ errorCode: "UNAUTHENTICATED", status: 401, message: "gone" }));
    expect(sessionState()).toMatchObject({ status: "signed-out", reason: expect.stringContaining("sign in again") });
  });

  it("shows a wrong password as the server's error, staying signed out", async () => {
    serve({
      "/api/2.0/tracker/session/sign-in": json(401, {
        error_code: "UNAUTHENTICATED",
        message: "Wrong username or password",
      }),
    });
    await expect(signIn("alice", "nope")).rejects.toThrow("Wrong username or password");
    expect(sessionState().status).not.toBe("signed-in");
  });
});
