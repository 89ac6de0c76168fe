/**
 * Limits on what one server process takes on at once (see http/in-flight-limit.ts and
 * http/body-timeout.ts): their defaults and how their settings are read.
 */

/**
 * Requests one process works on at once before it answers 503 (TRACKER_MAX_IN_FLIGHT_REQUESTS,
 * --max-in-flight-requests; 0: no bound). Well above what a database pool serves at once (the rest
 * wait in its queue for a few ms each), well below what makes the process's memory grow: measured by
 * tooling/reliability/src/memory-under-load.test.ts.
 */
export const DEFAULT_MAX_IN_FLIGHT_REQUESTS = 256;
export const MAX_IN_FLIGHT_REQUESTS_LIMIT = 1_000_000;

/** How long a request body may receive nothing before its connection is closed (TRACKER_BODY_TIMEOUT, --body-timeout; 0: never). */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
/**
 * After SIGTERM, how long the server keeps accepting and serving while /health/ready answers 503
 * and every answer says `Connection: close`, so that a load balancer takes it out of rotation
 * before it stops accepting (TRACKER_SHUTDOWN_DELAY, --shutdown-delay; 0: stop accepting at once).
 */
export const DEFAULT_SHUTDOWN_DELAY_MS = 0;
/**
 * After it stops accepting, how long the server waits for the requests in flight before it closes
 * their connections and exits (TRACKER_DRAIN_TIMEOUT, --drain-timeout; 0: wait as long as they take).
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;
const MAX_DURATION_MS = 24 * 3600 * 1000;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * `60`, `60s`, `500ms`, `2m`, `1.5s`, `1h`, `7d`: a duration in milliseconds, from `minMs` (default 0,
 * which means off) to `maxMs` (default 24 h). A bare number counts `bareUnitMs` each: seconds by
 * default, milliseconds for the database timeouts (as PostgreSQL reads a bare statement_timeout).
 */
export function parseDurationMs(
  raw: string,
  what: string,
  {
    bareUnitMs = 1000,
    minMs = 0,
    maxMs = MAX_DURATION_MS,
  }: { bareUnitMs?: number; minMs?: number; maxMs?: number } = {},
): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d|)\s*$/i.exec(raw);
  const unit = match?.[2] ? UNIT_MS[match[2].toLowerCase()]! : bareUnitMs;
  const ms = match ? Math.round(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < minMs || ms > maxMs)
    throw new RangeError(
      `${what} must be a duration from ${describeMs(minMs)} to ${describeMs(maxMs)} such as 30s, 500ms, 2m or 7d (a bare number is ${bareUnitMs === 1 ? "milliseconds" : "seconds"}), got "${raw}"`,
    );
  return ms;
}

/** `0 ms`, `1 s`, `24 h`, `365 d`: a bound as the messages above name it (days above a day). */
function describeMs(ms: number): string {
  if (ms > UNIT_MS.d! && ms % UNIT_MS.d! === 0) return `${ms / UNIT_MS.d!} d`;
  if (ms !== 0 && ms % UNIT_MS.h! === 0) return `${ms / UNIT_MS.h!} h`;
  if (ms !== 0 && ms % UNIT_MS.s! === 0) return `${ms / UNIT_MS.s!} s`;
  return `${ms} ms`;
}

/**
 * How long a web UI sign-in lasts (TRACKER_SESSION_LIFETIME, --session-lifetime): 7 days, from
 * 1 minute to 365 days. Signing out, a password change and deleting the user end it sooner.
 */
export const DEFAULT_SESSION_LIFETIME_MS = 7 * 86_400_000;
export const SESSION_LIFETIME_RANGE = { minMs: 60_000, maxMs: 365 * 86_400_000 } as const;

/** A count from 0 to `max` in decimal digits, or a RangeError naming `what`. */
export function parseCount(raw: string, what: string, max: number): number {
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n > max)
    throw new RangeError(`${what} must be an integer from 0 to ${max}, got "${raw}"`);
  return n;
}
