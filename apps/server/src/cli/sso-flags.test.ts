import { describe, expect, it } from "vitest";
import { configFromFlags } from "./options.js";

/** The single sign-on flags of `tracker server` (their checks: config/sso-config.test.ts). */
describe("single sign-on flags", () => {
  it("takes the flags as their environment variables", () => {
    const config = configFromFlags(
      {
        auth: "users",
        authTrustedHeader: "X-Forwarded-User",
        authTrustedProxies: "192.168.0.1",
        authJwtJwks: "https://idp.example/jwks.json",
        authJwtAudience: "aud-1",
        authJwtClaim: "email",
      },
      {},
    );
    expect(config.authTrustedProxies).toEqual(["192.168.0.1"]);
    expect(config.authJwt).toEqual({ jwks: "https://idp.example/jwks.json", audience: "aud-1", claim: "email" });
  });
});
