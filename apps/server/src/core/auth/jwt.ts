import fs from "node:fs";
import type { JwtSettings } from "../../config/config.js";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";

/**
 * Bearer JSON Web Tokens from an identity provider (single sign-on, beyond MLflow): the signature
 * is checked with `jose` against an HS256 shared secret or the keys of a JWKS (a URL, fetched and
 * cached by jose, or a local file; RS256, PS256 and ES256), then expiry, not-before, audience and,
 * when configured, issuer. The configured claim (`sub` by default, or `username`, `email`, …) names
 * the user.
 */

export type JwtCheck = { username: string } | { error: string };

const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"];
/** Clock skew tolerated on exp and nbf. */
const CLOCK_TOLERANCE_S = 30;

/** Whether a Bearer credential has the shape of a JWS in compact form (three base64url parts). */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

function keySource(settings: JwtSettings): { key: Uint8Array | JWTVerifyGetKey; algorithms: string[] } {
  if (settings.jwks !== undefined) {
    const jwks = settings.jwks;
    if (/^https?:\/\//i.test(jwks)) return { key: createRemoteJWKSet(new URL(jwks)), algorithms: ASYMMETRIC };
    const set = JSON.parse(fs.readFileSync(jwks, "utf8")) as JSONWebKeySet;
    return { key: createLocalJWKSet(set), algorithms: ASYMMETRIC };
  }
  if (settings.secret === undefined) throw new Error("a JWT secret or JWKS is needed");
  return { key: new TextEncoder().encode(settings.secret), algorithms: ["HS256"] };
}

/** Why jose refused a token, in words for the 401's message. */
function reason(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return "the token has expired";
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === "aud") return "the token's audience (aud) is not this server's";
    if (err.claim === "iss") return "the token's issuer (iss) is not the configured one";
    if (err.claim === "nbf") return "the token is not valid yet (nbf)";
    if (err.reason === "missing") return `the token lacks the required "${err.claim}" claim`;
    return `the token's "${err.claim}" claim is not acceptable (${err.reason})`;
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (err instanceof joseErrors.JWKSNoMatchingKey) return "no configured key matches the token (kid or algorithm)";
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JOSEError) {
    return err instanceof joseErrors.JWKSTimeout ? "the identity provider's keys could not be fetched" : err.message;
  }
  return "the token could not be read";
}

/** A verifier for one configuration; throws at creation on an unreadable JWKS file. */
export function jwtVerifier(settings: JwtSettings): (token: string) => Promise<JwtCheck> {
  const { key, algorithms } = keySource(settings);
  return async (token) => {
    let payload: JWTPayload;
    try {
      const options = {
        algorithms,
        audience: settings.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp"],
        ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
      };
      payload =
        key instanceof Uint8Array
          ? (await jwtVerify(token, key, options)).payload
          : (await jwtVerify(token, key, options)).payload;
    } catch (err) {
      return { error: reason(err) };
    }
    const name = payload[settings.claim];
    if (typeof name !== "string" || name.trim() === "")
      return { error: `the token has no ${settings.claim} claim naming the user` };
    return { username: name };
  };
}
