import { TrackerError } from "./errors.js";

/** A fetch function as openapi-fetch calls it; `globalThis.fetch` and most fetch polyfills fit. */
export type FetchLike = (input: Request) => Promise<Response>;

export interface RetryOptions {
  /** Further attempts after the first one (default 3; 0 turns retries off). */
  retries: number;
  /** Delay before the first retry, doubled for each further one (default 200 ms). */
  minDelayMs: number;
  /** Upper bound of one delay, also applied to a server's Retry-After (default 5000 ms). */
  maxDelayMs: number;
}

export interface TransportOptions {
  /** The fetch to send requests with (default: `globalThis.fetch`, looked up at each call). */
  fetch?: FetchLike;
  /**
   * Time allowed for one attempt, from sending the request to the end of the answer's body, in
   * milliseconds (default 30 000; 0 for no limit). An attempt that runs out fails with TIMEOUT.
   */
  timeoutMs?: number;
  /** Retry policy (see {@link RetryOptions}); `false` sends every request once. */
  retry?: Partial<RetryOptions> | false;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY: Readonly<RetryOptions> = { retries: 3, minDelayMs: 200, maxDelayMs: 5_000 };

/** POST operations that only read, and may therefore be repeated like GETs. */
const READ_ONLY_POST_SUFFIXES = ["/experiments/search", "/runs/search", "/registered-models/get-latest-versions"];

/** Statuses retried for any request: the server did not act on it. */
const RETRY_ALWAYS = new Set([429, 503]);
/** Statuses retried only for idempotent requests: a gateway may have passed the request on. */
const RETRY_IDEMPOTENT = new Set([502, 504]);
/** Connection errors raised before anything was sent (Node's undici puts the code on `cause`). */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** True for requests that may be sent again without changing the outcome: GETs and read-only POSTs. */
export function isIdempotent(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return true;
  if (method !== "POST") return false;
  const pathname = new URL(request.url).pathname.replace(/\/+$/, "");
  return READ_ONLY_POST_SUFFIXES.some((suffix) => pathname.endsWith(suffix));
}

/**
 * Wraps a fetch with a per-attempt timeout and retries with exponential backoff:
 * idempotent requests (GET and the read-only POSTs) are retried on network errors, timeouts and
 * 429/502/503/504; other requests only when the server certainly did not act on them (429, 503
 * TEMPORARILY_UNAVAILABLE, connection refused). Network errors, timeouts and aborts are thrown as
 * {@link TrackerError}; HTTP answers, successful or not, are returned with their body read in full.
 */
export function createTransport(options: TransportOptions = {}): FetchLike {
  const retry: RetryOptions =
    options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const send: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));

  return async (request) => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const idempotent = isIdempotent(request);
    const callerSignal = request.signal;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < retry.retries;
      let response: Response;
      try {
        response = await attemptOnce(send, request, body, timeoutMs);
      } catch (error) {
        const failure = toTransportError(error, callerSignal, timeoutMs);
        const retryable =
          failure.errorCode === "NETWORK_ERROR"
            ? idempotent || wasNotSent(error)
            : failure.errorCode === "TIMEOUT" && idempotent;
        if (!canRetry || !retryable) throw failure;
        await delay(backoffMs(retry, attempt), callerSignal);
        continue;
      }
      const retryable = RETRY_ALWAYS.has(response.status) || (idempotent && RETRY_IDEMPOTENT.has(response.status));
      if (!canRetry || !retryable) return response;
      await delay(retryAfterMs(response, retry) ?? backoffMs(retry, attempt), callerSignal);
    }
  };
}

/** One attempt: sends a fresh copy of the request and reads the whole answer under the timeout. */
async function attemptOnce(
  send: FetchLike,
  template: Request,
  body: ArrayBuffer | undefined,
  timeoutMs: number,
): Promise<Response> {
  const controller = new AbortController();
  const callerSignal = template.signal;
  const onCallerAbort = () => controller.abort(callerSignal.reason);
  if (callerSignal.aborted) onCallerAbort();
  else callerSignal.addEventListener("abort", onCallerAbort, { once: true });
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => controller.abort(new TimeoutMarker()), timeoutMs)
      : undefined;
  try {
    const request = new Request(template.url, {
      method: template.method,
      headers: template.headers,
      body,
      signal: controller.signal,
      redirect: template.redirect,
      credentials: template.credentials,
    });
    const response = await send(request);
    const content = await response.arrayBuffer();
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    return new Response(nullBody ? null : content, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    // Report why the attempt was cut short, whatever the fetch implementation threw.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    callerSignal.removeEventListener("abort", onCallerAbort);
  }
}

/** Abort reason used for timeouts, so they can be told apart from the caller's own aborts. */
class TimeoutMarker extends Error {
  constructor() {
    super("timeout");
  }
}

function toTransportError(error: unknown, callerSignal: AbortSignal, timeoutMs: number): TrackerError {
  if (error instanceof TrackerError) return error;
  if (error instanceof TimeoutMarker) {
    return new TrackerError({ errorCode: "TIMEOUT", status: 0, message: `No complete answer within ${timeoutMs} ms` });
  }
  if (callerSignal.aborted) {
    return new TrackerError({ errorCode: "ABORTED", status: 0, message: "The request was aborted", cause: error });
  }
  const detail = error instanceof Error ? describeNetworkError(error) : String(error);
  return new TrackerError({ errorCode: "NETWORK_ERROR", status: 0, message: `Network error: ${detail}`, cause: error });
}

function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message) return `${error.message} (${cause.message})`;
  return error.message;
}

/** True when the error proves the request never reached a server (safe to send again). */
function wasNotSent(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  if (typeof cause !== "object" || cause === null) return false;
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" && NOT_SENT_CODES.has(code);
}

/** Exponential backoff with jitter: between half and all of min(max, min * 2^attempt). */
function backoffMs(retry: RetryOptions, attempt: number): number {
  const cap = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return cap / 2 + (Math.random() * cap) / 2;
}

/** The delay a 429/503 asks for in Retry-After (seconds or an HTTP date), bounded by maxDelayMs. */
function retryAfterMs(response: Response, retry: RetryOptions): number | undefined {
  const header = response.headers.get("retry-after");
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), retry.maxDelayMs);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      new TrackerError({ errorCode: "ABORTED", status: 0, message: "The request was aborted", cause: signal.reason });
    if (signal.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
