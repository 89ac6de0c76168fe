import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

/** The single sign-on settings: environment variables, flags, and the mistakes refused at start. */

const USERS = { TRACKER_AUTH: "users" };
const SECRET = "x".repeat(32);

describe("single sign-on configuration", () => {
  it("reads the trusted header, its proxies and the JWT settings from the environment", () => {
    const config = loadConfig({
      ...USERS,
      TRACKER_AUTH_TRUSTED_HEADER: "X-Forwarded-Email",
      TRACKER_AUTH_TRUSTED_PROXIES: "10.0.0.0/8, ::1",
      TRACKER_AUTH_JWT_SECRET: SECRET,
      TRACKER_AUTH_JWT_AUDIENCE: "tracker",
      TRACKER_AUTH_JWT_ISSUER: "https://idp.example",
    });
    expect(config.authTrustedHeader).toBe("X-Forwarded-Email");
    expect(config.authTrustedProxies).toEqual(["10.0.0.0/8", "::1"]);
    expect(config.authJwt).toEqual({
      secret: SECRET,
      audience: "tracker",
      issuer: "https://idp.example",
      claim: "sub",
    });
    expect(loadConfig({}).authJwt).toBeUndefined();
  });

  it.each([
    [{ TRACKER_AUTH_TRUSTED_HEADER: "X-Forwarded-User", TRACKER_AUTH_TRUSTED_PROXIES: "::1" }, "add --auth users"],
    [{ ...USERS, TRACKER_AUTH_TRUSTED_HEADER: "X-Forwarded-User" }, "--auth-trusted-proxies"],
    [{ ...USERS, TRACKER_AUTH_TRUSTED_HEADER: "X-Forwarded-User", TRACKER_AUTH_TRUSTED_PROXIES: "proxy" }, '"proxy"'],
    [{ ...USERS, TRACKER_AUTH_TRUSTED_HEADER: "X Bad", TRACKER_AUTH_TRUSTED_PROXIES: "::1" }, "header name"],
    [{ ...USERS, TRACKER_AUTH_JWT_SECRET: "short", TRACKER_AUTH_JWT_AUDIENCE: "a" }, "at least 32 bytes"],
    [{ ...USERS, TRACKER_AUTH_JWT_SECRET: SECRET }, "TRACKER_AUTH_JWT_AUDIENCE"],
    [{ ...USERS, TRACKER_AUTH_JWT_AUDIENCE: "a" }, "need a key"],
    [
      { ...USERS, TRACKER_AUTH_JWT_SECRET: SECRET, TRACKER_AUTH_JWT_JWKS: "/k.json", TRACKER_AUTH_JWT_AUDIENCE: "a" },
      "exclude each other",
    ],
  ])("refuses %o at start: %s", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
