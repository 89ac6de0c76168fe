import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";
import {
  delayAfter,
  recordSignInFailure,
  recordSignInSuccess,
  signInRetryAfterMs,
  THROTTLE_POLICY,
} from "../../core/auth/throttle.js";

/** Brute-force slowing of sign-ins (issue 29, item 8): per username and per address, in the database. */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
});

describe("the delay after each failure", () => {
  it("is none for the free failures, then doubles from 1 s up to 15 minutes", () => {
    const delays = [1, 5, 6, 7, 8, 15, 16, 40].map((n) => delayAfter(n, 5));
    expect(delays).toEqual([0, 0, 1_000, 2_000, 4_000, 512_000, 900_000, 900_000]);
  });
});

describe.each(testDatabases())("the sign-in throttle on %s", (kind) => {
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN });
  const db = () => suite.server.database.knex;
  // Simulated times lie in the past, so that cleaning up after them never drops what real requests count now.
  const T0 = Date.now() - 2 * 3_600_000;

  it("refuses a username after 5 failures in 15 minutes, longer after each, until a success", async () => {
    const attempt = { username: "mallory-target", address: "198.51.100.1" };
    for (let i = 0; i < 5; i++) await recordSignInFailure(db(), attempt, T0 + i);
    expect(await signInRetryAfterMs(db(), attempt, T0 + 10)).toBe(0);
    await recordSignInFailure(db(), attempt, T0 + 10); // the 6th: 1 s
    expect(await signInRetryAfterMs(db(), attempt, T0 + 10)).toBe(1_000);
    // Another address is refused too: the username is.
    expect(await signInRetryAfterMs(db(), { ...attempt, address: "203.0.113.9" }, T0 + 500)).toBe(510);
    await recordSignInFailure(db(), attempt, T0 + 2_000); // the 7th: 2 s
    expect(await signInRetryAfterMs(db(), attempt, T0 + 2_000)).toBe(2_000);
    // After the window the count starts again.
    const later = T0 + THROTTLE_POLICY.windowMs + 5_000;
    await recordSignInFailure(db(), attempt, later);
    expect(await signInRetryAfterMs(db(), attempt, later)).toBe(0);
    for (let i = 0; i < 6; i++) await recordSignInFailure(db(), attempt, later + i);
    expect(await signInRetryAfterMs(db(), attempt, later + 5)).toBeGreaterThan(0);
    await recordSignInSuccess(db(), attempt);
    expect(await signInRetryAfterMs(db(), { ...attempt, address: "203.0.113.9" }, later + 5)).toBe(0);
  });

  it("refuses an address after 20 failures whatever the usernames", async () => {
    const address = "192.0.2.77";
    // An hour after the test above's times: its clean-up of finished windows never reaches these.
    const T1 = T0 + 3_600_000;
    for (let i = 0; i < 20; i++) await recordSignInFailure(db(), { username: `guess-${i}`, address }, T1 + i);
    expect(await signInRetryAfterMs(db(), { username: "fresh", address }, T1 + 20)).toBe(0);
    await recordSignInFailure(db(), { username: "guess-20", address }, T1 + 20);
    expect(await signInRetryAfterMs(db(), { username: "fresh", address }, T1 + 20)).toBe(1_000);
    // A success does not clear an address.
    await recordSignInSuccess(db(), { username: "fresh", address });
    expect(await signInRetryAfterMs(db(), { username: "other", address }, T1 + 20)).toBe(1_000);
  });

  // Each wrong or first password costs a deliberately slow scrypt: the budget of a scenario.
  it("answers HTTP Basic of a refused username 429 with Retry-After, right password or not, before checking it", {
    timeout: 180_000,
  }, async () => {
    const create = await call(
      suite.url,
      "POST",
      "/api/2.0/mlflow/users/create",
      { username: "victim", password: "victim-password-1" },
      basic(ADMIN.username, ADMIN.password),
    );
    expect(create.status).toBe(200);
    // Wrong passwords through HTTP: 401 each, counted (two here; the counting itself is tested above).
    for (let i = 0; i < 2; i++) {
      const res = await call(
        suite.url,
        "GET",
        "/api/2.0/tracker/users/current",
        undefined,
        basic("victim", `wrong-${i}`),
      );
      expect(res.status).toBe(401);
    }
    const [row] = (await db()("sign_in_failures").where({ key: "user:victim" }).select("failures")) as Array<{
      failures: number;
    }>;
    expect(row?.failures).toBe(2);
    // As if the sixth came now and made it wait a minute (no test waits on the clock).
    await db()("sign_in_failures")
      .where({ key: "user:victim" })
      .update({ blocked_until_ms: Date.now() + 60_000 });
    for (const password of ["victim-password-1", "wrong-again"]) {
      const res = await call(suite.url, "GET", "/api/2.0/tracker/users/current", undefined, basic("victim", password));
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
      expect(res.body).toMatchObject({ error_code: "REQUEST_LIMIT_EXCEEDED" });
      expect(String((res.body as { message: string }).message)).toMatch(/^Too many failed sign-in attempts/);
    }
    // Others are not slowed.
    const admin = await call(
      suite.url,
      "GET",
      "/api/2.0/tracker/users/current",
      undefined,
      basic(ADMIN.username, ADMIN.password),
    );
    expect(admin.status).toBe(200);
    // Once the wait is over, the right password clears the username's count.
    await db()("sign_in_failures").where({ key: "user:victim" }).update({ blocked_until_ms: 0 });
    const ok = await call(
      suite.url,
      "GET",
      "/api/2.0/tracker/users/current",
      undefined,
      basic("victim", "victim-password-1"),
    );
    expect(ok.status).toBe(200);
    expect(await db()("sign_in_failures").where({ key: "user:victim" })).toEqual([]);
  });
});
