import type { Response } from "express";
import { answerCompression } from "../compress.js";
import type { Knex } from "knex";
import {
  recordSignInFailure,
  recordSignInSuccess,
  signInRetryAfterMs,
  THROTTLE_POLICY,
  type SignInAttempt,
} from "../../core/auth/throttle.js";

/**
 * The sign-in throttle as the HTTP layer uses it (policy and numbers: core/auth/throttle.ts), for
 * HTTP Basic here and for any other sign-in endpoint (the web sign-in form): ask `retryAfterMs`
 * before checking a password, answer `tooManyAttempts` when it is above 0, and report the outcome
 * with `failed` or `succeeded`. The client's address comes from sso.ts `clientAddress`.
 */
export interface SignInThrottle {
  retryAfterMs(attempt: SignInAttempt): Promise<number>;
  failed(attempt: SignInAttempt): Promise<void>;
  succeeded(attempt: SignInAttempt): Promise<void>;
}

export function signInThrottle(db: Knex, policy = THROTTLE_POLICY): SignInThrottle {
  return {
    retryAfterMs: (attempt) => signInRetryAfterMs(db, attempt),
    failed: (attempt) => recordSignInFailure(db, attempt, undefined, policy),
    succeeded: (attempt) => recordSignInSuccess(db, attempt),
  };
}

/** 429 with Retry-After (whole seconds, rounded up), as MLflow names a rate limit. */
export function tooManyAttempts(res: Response, retryAfterMs: number): void {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  res.status(429).setHeader("Retry-After", String(seconds)).type("application/json");
  answerCompression(res);
  res.send(
    JSON.stringify({
      error_code: "REQUEST_LIMIT_EXCEEDED",
      message: `Too many failed sign-in attempts. Try again in ${seconds} s.`,
    }),
  );
}
