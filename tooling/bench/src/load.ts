import autocannon from "autocannon";
import type pg from "pg";
import { substitute, type CapturedRequest } from "./capture.js";

/** Closed-loop load: `connections` clients each send the next request as soon as the last one answered. */

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Latencies of successful requests, in milliseconds. */
  latencies: number[];
  /** A sample error message, if any. */
  firstError?: string;
}

export interface Summary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(result: LoadResult): Summary {
  const sorted = Float64Array.from(result.latencies).sort();
  const asArray = Array.from(sorted);
  return {
    requestsPerSecond: result.requests / result.seconds,
    p50: percentile(asArray, 50),
    p99: percentile(asArray, 99),
    errors: result.errors,
  };
}

/** What one load run counts while it runs: the successes' latencies, the errors and a sample error. */
class LoadTally {
  readonly started = performance.now();
  readonly latencies: number[] = [];
  errors = 0;
  firstError: string | undefined;

  /** One more error; its message is kept when it is the first. */
  fail(message: string): void {
    this.errors += 1;
    this.firstError ??= message;
  }

  /** The result, timed from the tally's start to now. */
  result(): LoadResult {
    const elapsed = (performance.now() - this.started) / 1000;
    const { latencies, errors, firstError } = this;
    return { requests: latencies.length, errors, seconds: elapsed, latencies, firstError };
  }
}

export interface HttpRequest {
  method: "GET" | "POST";
  path: string;
  body?: string;
}

/** Drives the server over HTTP with autocannon; `next(n)` gives the n-th request. */
export async function httpLoad(
  url: string,
  connections: number,
  seconds: number,
  next: (n: number) => HttpRequest,
): Promise<LoadResult> {
  let n = 0;
  const tally = new LoadTally();
  let finished!: (err: Error | null) => void;
  const done = new Promise<void>((resolve, reject) => (finished = (err) => (err ? reject(err) : resolve())));
  const options: autocannon.Options = {
    url,
    connections,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          const r = next(n++);
          return {
            ...req,
            method: r.method,
            path: r.path,
            body: r.body,
            headers: r.body === undefined ? {} : { "content-type": "application/json" },
          };
        },
        onResponse: (status: number, body: string) => {
          if (status >= 300) tally.firstError ??= `HTTP ${status}: ${body.slice(0, 300)}`;
        },
      },
    ],
  };
  const instance = autocannon(options, (err) => finished(err));
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) tally.latencies.push(responseTime);
    else tally.errors += 1;
  });
  instance.on("reqError", (err: Error) => tally.fail(err.message));
  await done;
  return tally.result();
}

/** Replays one captured request: its connections in parallel, each one's statements in order. */
export async function replay(pool: pg.Pool, request: CapturedRequest, stringify = false): Promise<void> {
  await Promise.all(
    request.sessions.map(async (session) => {
      const client = await pool.connect();
      let failed = false;
      try {
        for (const st of session) {
          const result = st.params
            ? await client.query({ text: st.sql, values: st.params })
            : await client.query(st.sql);
          if (stringify) JSON.stringify(result.rows);
        }
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        client.release(failed);
      }
    }),
  );
}

/**
 * The physical limit: the same statements, sent straight to PostgreSQL through pg with the same
 * concurrency. `substitutions(n)` adapts the n-th replay (e.g. the run a write goes to).
 */
export async function rawLoad(
  pool: pg.Pool,
  connections: number,
  seconds: number,
  request: CapturedRequest,
  substitutions: (n: number) => Array<[string, string]>,
  stringify = false,
): Promise<LoadResult> {
  let n = 0;
  const tally = new LoadTally();
  const deadline = tally.started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const r = substitute(request, substitutions(n++));
        const t0 = performance.now();
        try {
          await replay(pool, r, stringify);
          tally.latencies.push(performance.now() - t0);
        } catch (err) {
          tally.fail((err as Error).message);
        }
      }
    }),
  );
  return tally.result();
}
