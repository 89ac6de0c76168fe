import type { Knex } from "knex";
import { nowMs } from "../clock.js";
import {
  blockedUntil,
  blockUntil,
  countFailure,
  dropStaleFailures,
  forgetFailures,
} from "../../store/auth-throttle.js";

/**
 * Brute-force slowing of sign-ins (HTTP Basic, and the web sign-in form): failures are counted per
 * username and per client address in the database, so every server process sharing it counts
 * together. Within a window of 15 minutes, a username may fail 5 times and an address 20 times
 * (several users behind one NAT); each further failure refuses that key for 1 s, then 2 s, 4 s, …
 * up to 15 minutes. A refused attempt is answered 429 with Retry-After before its password is
 * checked, so guessing learns nothing while refused. A successful sign-in clears its username's
 * count (not its address's, so one valid account does not reset an attacker's address).
 */

export interface ThrottlePolicy {
  windowMs: number;
  freeFailuresPerUser: number;
  freeFailuresPerAddress: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export const THROTTLE_POLICY: ThrottlePolicy = {
  windowMs: 15 * 60_000,
  freeFailuresPerUser: 5,
  freeFailuresPerAddress: 20,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
};

const userKey = (username: string) => `user:${username}`;
const addressKey = (address: string) => `address:${address}`;

/** The delay after the `failures`-th failure of a key allowed `free` failures, in ms (0: none). */
export function delayAfter(failures: number, free: number, policy: ThrottlePolicy = THROTTLE_POLICY): number {
  if (failures <= free) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(30, failures - free - 1));
}

export interface SignInAttempt {
  username: string;
  /** The client's address (the socket's, or the one a trusted proxy reports). */
  address: string;
}

/** How many ms the attempt must wait before it may be checked (0: it may be checked now). */
export async function signInRetryAfterMs(db: Knex, attempt: SignInAttempt, now: number = nowMs()): Promise<number> {
  const until = await blockedUntil(db, [userKey(attempt.username), addressKey(attempt.address)], now);
  return until > now ? until - now : 0;
}

/** Counts a failed sign-in against its username and its address. */
export async function recordSignInFailure(
  db: Knex,
  attempt: SignInAttempt,
  now: number = nowMs(),
  policy: ThrottlePolicy = THROTTLE_POLICY,
): Promise<void> {
  await dropStaleFailures(db, now, policy.windowMs);
  for (const [key, free] of [
    [userKey(attempt.username), policy.freeFailuresPerUser],
    [addressKey(attempt.address), policy.freeFailuresPerAddress],
  ] as const) {
    const delay = delayAfter(await countFailure(db, key, now, policy.windowMs), free, policy);
    if (delay > 0) await blockUntil(db, key, now + delay);
  }
}

/** A successful sign-in clears its username's failures. */
export async function recordSignInSuccess(db: Knex, attempt: SignInAttempt): Promise<void> {
  await forgetFailures(db, userKey(attempt.username));
}
