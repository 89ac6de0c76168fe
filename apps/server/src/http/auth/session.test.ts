import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";
import { cookieValue } from "./session.js";

/** The web UI's sign-in sessions (issue 29): cookie, CSRF token, sign-out, and the permission lists. */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const BOB = { username: "bob", password: "bob-password-12345" };
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
});

describe("cookieValue", () => {
  it("finds one cookie among several", () => {
    expect(cookieValue("a=1; tracker_session=abc; b=2", "tracker_session")).toBe("abc");
    expect(cookieValue("tracker_sessionx=1", "tracker_session")).toBeUndefined();
    expect(cookieValue(undefined, "tracker_session")).toBeUndefined();
  });
});

describe.each(testDatabases())("web UI sessions on %s", (kind) => {
  // A lifetime other than the default of 7 days, to see the setting reach the session.
  const LIFETIME_MS = 2 * 3600 * 1000;
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN, sessionLifetimeMs: LIFETIME_MS });

  /** Signs in; resolves to the cookie header to send and the CSRF token. */
  const signIn = async (who: { username: string; password: string }, headers: Record<string, string> = {}) => {
    const res = await call<{ csrf_token: string; expires_at: number; user: { username: string } }>(
      suite.url,
      "POST",
      "/api/2.0/tracker/session/sign-in",
      who,
      headers,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    const id = /^tracker_session=([^;]+)/.exec(setCookie)?.[1];
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return { cookie: `tracker_session=${id}`, csrf: res.body.csrf_token, setCookie, body: res.body };
  };

  it("signs in with a password and sets an HttpOnly, SameSite=Lax cookie, Secure behind HTTPS", async () => {
    const wrong = await call(suite.url, "POST", "/api/2.0/tracker/session/sign-in", {
      username: ADMIN.username,
      password: "wrong-password-1",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error_code: "UNAUTHENTICATED" });
    expect(wrong.headers.get("www-authenticate")).toBeNull();
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const plain = await signIn(ADMIN);
    expect(plain.setCookie).toMatch(/; Path=\//);
    expect(plain.setCookie).toMatch(/; HttpOnly/);
    expect(plain.setCookie).toMatch(/; SameSite=Lax/);
    expect(plain.setCookie).not.toMatch(/Secure/);
    expect(plain.body.user).toMatchObject({ username: "admin", is_admin: true });
    const proxied = await signIn(ADMIN, { "x-forwarded-proto": "https" });
    expect(proxied.setCookie).toMatch(/; Secure/);
  });

  it("stores only a hash of the session id, with an expiry", async () => {
    const { cookie } = await signIn(ADMIN);
    const id = cookie.slice("tracker_session=".length);
    const rows = (await suite.server.database.knex("web_sessions").select("id_sha256", "expires_at_ms")) as Array<{
      id_sha256: string;
      expires_at_ms: string | number;
    }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.id_sha256.includes(id))).toBe(false);
    expect(rows.every((r) => Number(r.expires_at_ms) > Date.now())).toBe(true);
  });

  it("lasts the configured lifetime, in the answer, the cookie and the database", async () => {
    const before = Date.now();
    const { setCookie, body } = await signIn(ADMIN);
    const after = Date.now();
    const expiresAt = body.expires_at;
    expect(expiresAt).toBeGreaterThanOrEqual(before + LIFETIME_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + LIFETIME_MS);
    const cookieExpires = Date.parse(/; Expires=([^;]+)/.exec(setCookie)?.[1] ?? "");
    // The cookie's date has whole seconds.
    expect(Math.abs(cookieExpires - expiresAt)).toBeLessThan(1000);
    const stored = (await suite.server.database.knex("web_sessions").select("expires_at_ms")) as Array<{
      expires_at_ms: string | number;
    }>;
    expect(stored.map((r) => Number(r.expires_at_ms))).toContain(expiresAt);
  });

  it("a password change ends the user's other sessions, not the one it was made from", async () => {
    const carol = { username: `carol-${kind}`, password: "carol-password-123" };
    const admin = basic(ADMIN.username, ADMIN.password);
    expect((await call(suite.url, "POST", "/api/2.0/tracker/users/create", carol, admin)).status).toBe(200);
    const here = await signIn(carol);
    const elsewhere = await signIn(carol);
    const admins = await signIn(ADMIN);
    const signedIn = async (cookie: string) =>
      (await call(suite.url, "GET", "/api/2.0/tracker/users/current", undefined, { cookie })).status;
    const setPassword = (password: string, headers: Record<string, string>) =>
      call(
        suite.url,
        "PATCH",
        "/api/2.0/tracker/users/update-password",
        { username: carol.username, password },
        headers,
      );
    expect(await signedIn(elsewhere.cookie)).toBe(200);

    const changed = await setPassword("carol-new-password-1", { cookie: here.cookie, "x-csrf-token": here.csrf });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await signedIn(here.cookie)).toBe(200);
    expect(await signedIn(elsewhere.cookie)).toBe(401);
    // Other users' sessions are not touched.
    expect(await signedIn(admins.cookie)).toBe(200);

    // An admin's reset (HTTP Basic, no session of carol's to keep) ends all of them.
    expect((await setPassword("carol-third-password", admin)).status).toBe(200);
    expect(await signedIn(here.cookie)).toBe(401);
    expect(await signedIn(admins.cookie)).toBe(200);
    // The new password signs in; a refused change (too short) ends nothing.
    const fresh = await signIn({ username: carol.username, password: "carol-third-password" });
    expect((await setPassword("x", admin)).status).toBe(400);
    expect(await signedIn(fresh.cookie)).toBe(200);
  });

  it("acts as its user everywhere a credential does, and tells the UI who is signed in", async () => {
    await call(suite.url, "POST", "/api/2.0/tracker/users/create", BOB, basic(ADMIN.username, ADMIN.password));
    const { cookie, csrf } = await signIn(BOB);
    const session = await call(suite.url, "GET", "/api/2.0/tracker/session", undefined, { cookie });
    expect(session.body).toMatchObject({ auth: "users", user: { username: "bob", is_admin: false }, csrf_token: csrf });
    expect((await call(suite.url, "GET", "/api/2.0/mlflow/session")).body).toEqual({ auth: "users" });
    const me = await call(suite.url, "GET", "/api/2.0/tracker/users/current", undefined, { cookie });
    expect(me.body).toMatchObject({ user: { username: "bob" } });
    // Bob is no admin: the session carries his rights, not more.
    expect((await call(suite.url, "GET", "/api/2.0/tracker/users/list", undefined, { cookie })).status).toBe(403);
  });

  it("refuses a cookie-authenticated write without the CSRF token, and changes nothing", async () => {
    const { cookie, csrf } = await signIn(ADMIN);
    const name = `csrf-${kind}-${Date.now()}`;
    for (const headers of [{ cookie }, { cookie, "x-csrf-token": "wrong" }] as Array<Record<string, string>>) {
      const refused = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", { name }, headers);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error_code: "PERMISSION_DENIED" });
      expect(String(refused.body.message)).toContain("CSRF");
    }
    const absent = await call(
      suite.url,
      "GET",
      "/api/2.0/tracker/experiments/get-by-name",
      { experiment_name: name },
      {
        cookie,
      },
    );
    expect(absent.status).toBe(404);
    const made = await call<{ experiment_id: string }>(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/create",
      { name },
      { cookie, "x-csrf-token": csrf },
    );
    expect(made.status).toBe(200);
    // The creator (the session's user) got MANAGE, which the permissions panel lists.
    const listed = await call(
      suite.url,
      "GET",
      "/api/2.0/tracker/experiments/permissions/list",
      { experiment_id: made.body.experiment_id },
      { cookie },
    );
    expect(listed.body).toEqual({
      permissions: [{ user_id: expect.any(Number), username: "admin", permission: "MANAGE" }],
    });
  });

  it("lists permissions only for MANAGE users, and 404 for a missing resource", async () => {
    const admin = basic(ADMIN.username, ADMIN.password);
    await call(suite.url, "POST", "/api/2.0/tracker/users/create", BOB, admin);
    const exp = await call<{ experiment_id: string }>(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/create",
      { name: `perm-${kind}-${Date.now()}` },
      admin,
    );
    const { cookie } = await signIn(BOB);
    const path = "/api/2.0/tracker/experiments/permissions/list";
    expect((await call(suite.url, "GET", path, { experiment_id: exp.body.experiment_id }, { cookie })).status).toBe(
      403,
    );
    expect((await call(suite.url, "GET", path, { experiment_id: "987654" }, admin)).status).toBe(404);
    const model = `model-${kind}-${Date.now()}`;
    await call(suite.url, "POST", "/api/2.0/tracker/registered-models/create", { name: model }, admin);
    await call(
      suite.url,
      "POST",
      "/api/2.0/tracker/registered-models/permissions/create",
      { name: model, username: "bob", permission: "READ" },
      admin,
    );
    const models = await call(
      suite.url,
      "GET",
      "/api/2.0/tracker/registered-models/permissions/list",
      { name: model },
      admin,
    );
    expect(models.body).toEqual({
      permissions: [
        { user_id: expect.any(Number), username: "admin", permission: "MANAGE" },
        { user_id: expect.any(Number), username: "bob", permission: "READ" },
      ],
    });
  });

  it("signs out: the session is deleted and the cookie cleared", async () => {
    const { cookie, csrf } = await signIn(ADMIN);
    expect((await call(suite.url, "POST", "/api/2.0/tracker/session/sign-out", {}, { cookie })).status).toBe(403);
    const out = await call(
      suite.url,
      "POST",
      "/api/2.0/tracker/session/sign-out",
      {},
      { cookie, "x-csrf-token": csrf },
    );
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^tracker_session=;.*Expires=Thu, 01 Jan 1970/);
    const after = await call(suite.url, "GET", "/api/2.0/tracker/experiments/search", { max_results: 1 }, { cookie });
    expect(after.status).toBe(401);
    expect((await call(suite.url, "GET", "/api/2.0/tracker/session", undefined, { cookie })).body).toEqual({
      auth: "users",
    });
  });

  it("does not send a Basic challenge to a browser's fetches, only to navigations and other clients", async () => {
    const path = "/api/2.0/tracker/experiments/search";
    const fetched = await call(suite.url, "GET", path, { max_results: 1 }, { "sec-fetch-dest": "empty" });
    expect(fetched.status).toBe(401);
    expect(fetched.headers.get("www-authenticate")).toBe('Session realm="tracker"');
    const navigated = await call(suite.url, "GET", path, { max_results: 1 }, { "sec-fetch-dest": "document" });
    expect(navigated.headers.get("www-authenticate")).toMatch(/^Basic realm="tracker"/);
    expect((await call(suite.url, "GET", path, { max_results: 1 })).headers.get("www-authenticate")).toMatch(/^Basic/);
  });
});

describe.each(testDatabases())("web UI sessions with auth off on %s", (kind) => {
  const suite = useTestServer(kind);
  it("do not exist; the session state says auth is off", async () => {
    expect((await call(suite.url, "GET", "/api/2.0/tracker/session")).body).toEqual({ auth: "none" });
    expect(
      (await call(suite.url, "POST", "/api/2.0/tracker/session/sign-in", { username: "a", password: "b" })).status,
    ).toBe(404);
  });
});
