import type { Server, ServerResponse } from "node:http";
import { whenRequestOver } from "./request-work.js";

/**
 * Keep-alive and header timeouts. Node's default keep-alive timeout (5 s) is shorter than the idle
 * time of common clients' pools and of load balancers (60 s for AWS ALB, nginx's upstream
 * keepalive_timeout 60 s): such a client may reuse a socket at the very moment the server closes
 * it, and its request fails with ECONNRESET. The server therefore keeps idle connections longer
 * than those clients do and says so in `Keep-Alive: timeout=65`; the headers timeout must exceed
 * the keep-alive timeout (a reused socket's next request may take that long to start).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const HEADERS_TIMEOUT_MS = 66_000;

export interface ConnectionControl {
  /**
   * Keeps accepting and serving, but every answer from now on says `Connection: close` and its
   * connection is closed once the answer is out: a load balancer taking the server out of rotation
   * (its readiness answers 503 meanwhile) keeps no connection to it. Idle keep-alive connections
   * are left open here, as closing one races with a request the balancer may be sending on it;
   * `close` ends them.
   */
  drain(): void;
  /**
   * Stops accepting connections and resolves once every connection has ended and every request is
   * over (its handler settled too: http/request-work.ts), so the database can close. Idle
   * keep-alive sockets are closed at once; requests in flight finish, their answers say
   * `Connection: close` (unless already under way) and each connection is closed as soon as it is
   * idle, so shutdown never waits out the keep-alive timeout and no client reuses a socket that is
   * being closed. After `timeoutMs` (0: no bound) the connections still open are closed, requests
   * in flight with them, and it resolves without waiting for their handlers, with how many requests
   * were then not over.
   */
  close(timeoutMs?: number): Promise<number>;
  /** Requests received so far, and those not over yet. */
  activity(): RequestActivity;
  /** Resolves once no request is in flight (at once when none is). */
  idle(): Promise<void>;
}

export interface RequestActivity {
  received: number;
  inFlight: number;
}

/** Sets the timeouts on an HTTP server and tracks its requests for a prompt, clean close. */
export function manageConnections(server: Server): ConnectionControl {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // A body (a large artifact upload over a slow link) may take as long as it needs: Node's default
  // requestTimeout of 300 s would cut it. Headers must still arrive within headersTimeout.
  server.requestTimeout = 0;
  const inFlight = new Set<ServerResponse>();
  let received = 0;
  let draining = false;
  let closing = false;
  /** Those waiting for no request in flight (idle()). */
  let whenIdle: (() => void)[] = [];
  /** Called whenever a request is over, while close() waits. */
  let onOver: (() => void) | undefined;
  // First listener, before the app: it sees every request before anything is answered.
  server.prependListener("request", (_req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    received++;
    inFlight.add(res);
    whenRequestOver(res, () => {
      inFlight.delete(res);
      // The socket is idle once this answer is out: close it rather than keep it alive.
      if (closing) setImmediate(() => server.closeIdleConnections());
      onOver?.();
      if (inFlight.size === 0) {
        const waiting = whenIdle;
        whenIdle = [];
        for (const resolve of waiting) resolve();
      }
    });
  });
  let closed: Promise<number> | undefined;
  const drain = () => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
  };
  return {
    drain,
    close(timeoutMs = 0) {
      closed ??= new Promise<number>((resolve) => {
        drain();
        closing = true;
        let cut: number | undefined;
        let serverClosed = false;
        const finish = () => {
          if (!serverClosed || (cut === undefined && inFlight.size > 0)) return;
          clearTimeout(timer);
          onOver = undefined;
          resolve(cut ?? 0);
        };
        onOver = finish;
        const timer =
          timeoutMs > 0
            ? setTimeout(() => {
                cut = inFlight.size;
                server.closeAllConnections();
                finish();
              }, timeoutMs)
            : undefined;
        server.close(() => {
          serverClosed = true;
          finish();
        });
        server.closeIdleConnections();
      });
      return closed;
    },
    activity: () => ({ received, inFlight: inFlight.size }),
    idle: () => (inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenIdle.push(resolve))),
  };
}
