import type { IncomingMessage, Server } from "node:http";
import type { Logger } from "../logging/logger.js";

/**
 * A time limit on request bodies that stall. Node's requestTimeout counts the whole request, so it
 * would cut a large upload over a slow link (server.requestTimeout is 0, see connections.ts); this
 * limit is an idle one instead: a request whose body has not received a byte for `idleMs` while the
 * server was waiting for one has its connection closed. A body that moves, however slowly, is never
 * cut, and neither is one the server is not reading (an upload held back by a slow disk, a handler
 * that has not started reading yet): those bytes are not late, the server is.
 *
 * One timer per server checks every watched request a few times per period, so a stall is noticed
 * between `idleMs` and `idleMs * 1.25` after the last byte.
 */

interface Watched {
  req: IncomingMessage;
  /** The socket's bytesRead when last checked. */
  bytes: number;
  /** When the body last moved (or the server last held it back). */
  since: number;
}

/** True while the server is ready for more of the body, so that only the client can be late. */
function serverWaitsForBytes(req: IncomingMessage): boolean {
  return req.readableFlowing === true && req.readableLength < req.readableHighWaterMark;
}

/** What the limit holds: the requests whose body it is watching now. */
export interface BodyIdleLimit {
  watching(): number;
}

export function limitBodyIdleTime(server: Server, idleMs: number, logger?: Logger): BodyIdleLimit {
  if (idleMs <= 0) return { watching: () => 0 };
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    for (const w of watched) {
      const { req } = w;
      if (req.complete || req.destroyed) {
        watched.delete(w);
        continue;
      }
      const bytes = req.socket.bytesRead;
      if (bytes !== w.bytes || !serverWaitsForBytes(req)) {
        w.bytes = bytes;
        w.since = now;
      } else if (now - w.since >= idleMs) {
        watched.delete(w);
        logger?.warn(
          { method: req.method, url: req.url, idleMs },
          "request body stalled: no byte within the body timeout; closing the connection",
        );
        req.socket.destroy();
      }
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  server.on("request", (req: IncomingMessage) => {
    // Only requests that announce a body: a GET has none to wait for.
    const length = req.headers["content-length"];
    if (req.complete || ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined))
      return;
    const entry: Watched = { req, bytes: req.socket.bytesRead, since: Date.now() };
    watched.add(entry);
    // Forgotten as soon as the body has arrived or the request is gone: left to the next check, every
    // finished request stayed reachable (with its response) for up to idleMs / 4, ~20 KB each, so
    // memory grew with the request rate (15 s of requests at the default), not with the in-flight bound.
    const forget = () => watched.delete(entry);
    req.once("end", forget);
    req.once("close", forget);
    if (!timer) {
      timer = setInterval(check, Math.max(10, Math.floor(idleMs / 4)));
      timer.unref();
    }
  });
  return { watching: () => watched.size };
}
