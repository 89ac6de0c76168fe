import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, testDatabases, useTestServer, type TestServer } from "@tracker/testing";
import { parseProxyEntry, TrustedProxies } from "../../config/trusted-proxies.js";

/** Single sign-on (issue 29, item 6): a trusted proxy's user header, and Bearer JWTs of an identity provider. */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const SECRET = "a shared HS256 secret of at least 32 bytes";
const AUDIENCE = "tracker-tests";

describe("trusted proxies", () => {
  it("matches addresses and CIDR ranges, IPv4-mapped IPv6 as IPv4", () => {
    const proxies = new TrustedProxies(["10.0.0.0/8", "::1", "192.168.1.7"]);
    expect(proxies.trusts("10.2.3.4")).toBe(true);
    expect(proxies.trusts("::ffff:10.2.3.4")).toBe(true);
    expect(proxies.trusts("::1")).toBe(true);
    expect(proxies.trusts("192.168.1.7")).toBe(true);
    expect(proxies.trusts("192.168.1.8")).toBe(false);
    expect(proxies.trusts("127.0.0.1")).toBe(false);
    expect(proxies.trusts(undefined)).toBe(false);
    expect(new TrustedProxies([]).trusts("127.0.0.1")).toBe(false);
  });
  it("refuses what is not an address or range, naming it", () => {
    for (const bad of ["10.0.0.0/33", "proxy.local", "10.0.0.0/8/1", "::1/129", "10.0.0.0/x"])
      expect(() => parseProxyEntry(bad)).toThrow(`"${bad}" is not an IP address or CIDR range`);
  });
});

const whoAmI = (url: string, headers: Record<string, string>) =>
  call<{ user?: { username: string; is_admin: boolean }; error_code?: string; message?: string }>(
    url,
    "GET",
    "/api/2.0/tracker/users/current",
    undefined,
    headers,
  );

describe.each(testDatabases())("a trusted user header on %s", (kind) => {
  const trusted = useTestServer(kind, {
    auth: "users",
    authAdmin: ADMIN,
    authTrustedHeader: "X-Forwarded-User",
    authTrustedProxies: ["127.0.0.1/32", "::1"],
  });
  const untrusted = useTestServer(kind, {
    auth: "users",
    authAdmin: ADMIN,
    authTrustedHeader: "X-Forwarded-User",
    authTrustedProxies: ["10.0.0.0/8"],
  });

  it("names the user from a trusted proxy, creating an unknown one with the default permission", async () => {
    const res = await whoAmI(trusted.url, { "x-forwarded-user": "dana@example.com" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ username: "dana@example.com", is_admin: false });
    // The default permission (READ): reading works, writing to the Default experiment does not.
    const read = await call(
      trusted.url,
      "GET",
      "/api/2.0/mlflow/experiments/get",
      { experiment_id: "0" },
      {
        "x-forwarded-user": "dana@example.com",
      },
    );
    expect(read.status).toBe(200);
    const write = await call(
      trusted.url,
      "POST",
      "/api/2.0/mlflow/runs/create",
      { experiment_id: "0" },
      {
        "x-forwarded-user": "dana@example.com",
      },
    );
    expect(write.status).toBe(403);
    // The second request finds the same user; the admin sees it.
    const got = await call<{ user: { username: string } }>(
      trusted.url,
      "GET",
      "/api/2.0/mlflow/users/get",
      { username: "dana@example.com" },
      basic(ADMIN.username, ADMIN.password),
    );
    expect(got.body.user.username).toBe("dana@example.com");
    // Such a user has no password: Basic never matches it.
    expect((await whoAmI(trusted.url, basic("dana@example.com", "sso$no-password"))).status).toBe(401);
  });

  it("ignores the header from an address that is not a trusted proxy, and says so", async () => {
    const res = await whoAmI(untrusted.url, { "x-forwarded-user": ADMIN.username });
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe("UNAUTHENTICATED");
    expect(res.body.message).toMatch(/X-Forwarded-User header was ignored: .* is not one of the trusted proxies/);
    // Other credentials still work there, header or not.
    const withBasic = await whoAmI(untrusted.url, {
      "x-forwarded-user": "someone-else",
      ...basic(ADMIN.username, ADMIN.password),
    });
    expect(withBasic.body.user?.username).toBe(ADMIN.username);
    // And no user was created from the ignored header.
    const missing = await call(
      untrusted.url,
      "GET",
      "/api/2.0/mlflow/users/get",
      { username: "someone-else" },
      {
        ...basic(ADMIN.username, ADMIN.password),
      },
    );
    expect(missing.status).toBe(404);
  });
});

const sign = (claims: JWTPayload, key: Parameters<SignJWT["sign"]>[0], alg: string, kid?: string) =>
  new SignJWT(claims).setProtectedHeader({ alg, ...(kid ? { kid } : {}) }).sign(key);
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

describe.each(testDatabases())("Bearer JWTs signed with HS256 on %s", (kind) => {
  const suite = useTestServer(kind, {
    auth: "users",
    authAdmin: ADMIN,
    authJwt: { secret: SECRET, audience: AUDIENCE, issuer: "https://idp.example", claim: "username" },
  });
  const key = new TextEncoder().encode(SECRET);
  // Claims are made when a test runs (never at collection, which may be minutes earlier on a loaded machine).
  const good = () => ({ aud: AUDIENCE, iss: "https://idp.example", exp: inSeconds(300) });

  it("accepts a valid token and names the user by the configured claim", async () => {
    const token = await sign({ ...good(), username: "erin", sub: "ignored" }, key, "HS256");
    const res = await whoAmI(suite.url, bearer(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toEqual(expect.objectContaining({ username: "erin", is_admin: false }));
  });

  it.each([
    ["expired", () => ({ ...good(), exp: inSeconds(-120), username: "erin" }), "the token has expired"],
    ["not valid yet", () => ({ ...good(), nbf: inSeconds(600), username: "erin" }), "the token is not valid yet (nbf)"],
    ["for another audience", () => ({ ...good(), aud: "someone-else", username: "erin" }), "audience (aud)"],
    ["from another issuer", () => ({ ...good(), iss: "https://evil.example", username: "erin" }), "issuer (iss)"],
    ["without the claim", () => ({ ...good(), sub: "erin" }), "the token has no username claim"],
    [
      "without expiry",
      () => ({ aud: AUDIENCE, iss: "https://idp.example", username: "erin" }),
      'the token lacks the required "exp" claim',
    ],
  ])("refuses a token %s with 401 and a clear message", async (_what, claims, reason) => {
    const res = await whoAmI(suite.url, bearer(await sign(claims(), key, "HS256")));
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe("UNAUTHENTICATED");
    expect(res.body.message).toContain("Bearer token refused:");
    expect(res.body.message).toContain(reason);
  });

  it("refuses a token signed with another key", async () => {
    const other = new TextEncoder().encode("another secret, also 32 bytes or more");
    const res = await whoAmI(suite.url, bearer(await sign({ ...good(), username: "erin" }, other, "HS256")));
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("the token's signature does not verify");
  });

  it("refuses an unsigned token (alg none)", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ ...good(), username: "admin" })).toString("base64url");
    const res = await whoAmI(suite.url, bearer(`${header}.${payload}.`));
    expect(res.status).toBe(401);
  });
});

describe.each(testDatabases())("Bearer JWTs signed with RS256, keys from a JWKS file on %s", (kind) => {
  const rsa = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
  const { publicKey, privateKey } = rsa();
  const stranger = rsa();
  const jwks = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracker-jwks-")), "jwks.json");
  fs.writeFileSync(
    jwks,
    JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256" }] }),
  );
  const suite = useTestServer(kind, {
    auth: "users",
    authAdmin: ADMIN,
    authJwt: { jwks, audience: AUDIENCE, claim: "email" },
  });
  const good = () => ({ aud: AUDIENCE, exp: inSeconds(300), email: "frank@example.com" });

  it("accepts a token signed by the provider's key", async () => {
    const res = await whoAmI(suite.url, bearer(await sign(good(), privateKey, "RS256", "k1")));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user?.username).toBe("frank@example.com");
  });

  it("refuses a token signed by another key, expired, or for another audience", async () => {
    const cases: Array<[string, string]> = [
      [await sign(good(), stranger.privateKey, "RS256", "k1"), "signature does not verify"],
      [await sign({ ...good(), exp: inSeconds(-120) }, privateKey, "RS256", "k1"), "expired"],
      [await sign({ ...good(), aud: "other" }, privateKey, "RS256", "k1"), "audience (aud)"],
      [await sign(good(), new TextEncoder().encode(SECRET), "HS256", "k1"), "Bearer token refused"],
    ];
    for (const [token, reason] of cases) {
      const res = await whoAmI(suite.url, bearer(token));
      expect(res.status).toBe(401);
      expect(res.body.message).toContain(reason);
    }
  });

  it("leaves personal access tokens and Basic as they were", async () => {
    expect((await whoAmI(suite.url, basic(ADMIN.username, ADMIN.password))).body.user?.username).toBe("admin");
    expect((await whoAmI(suite.url, bearer("trk_nope"))).status).toBe(401);
  });
});

describe.each(testDatabases())("Bearer JWTs signed with RS256, keys from a JWKS URL on %s", (kind) => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwks = { keys: [{ ...publicKey.export({ format: "jwk" }), kid: "idp-1", alg: "RS256", use: "sig" }] };
  let idp: http.Server;
  let server: TestServer;
  let fetched = 0;
  beforeAll(async () => {
    idp = http.createServer((_req, res) => {
      fetched++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => idp.listen(0, "127.0.0.1", resolve));
    const { port } = idp.address() as { port: number };
    server = await startTestServer(kind, {
      auth: "users",
      authAdmin: ADMIN,
      authJwt: { jwks: `http://127.0.0.1:${port}/.well-known/jwks.json`, audience: AUDIENCE, claim: "sub" },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await new Promise((resolve) => idp?.close(resolve));
  });

  it("fetches the provider's keys once and accepts tokens signed by them", async () => {
    for (const sub of ["gina", "gina", "hal"]) {
      const token = await sign({ aud: AUDIENCE, exp: inSeconds(300), sub }, privateKey, "RS256", "idp-1");
      const res = await whoAmI(server.url, bearer(token));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.user?.username).toBe(sub);
    }
    expect(fetched).toBe(1);
  });
});
