import { isIP } from "node:net";
import os from "node:os";
import type { Request, RequestHandler } from "express";
import { sendError } from "./error-handler.js";

/**
 * Refuses what a web page on another site can make a browser send (issue 29, "safe defaults"),
 * whether authentication is on or off:
 * - DNS rebinding: a `Host` that is not this server's (an IP address, `localhost`, the machine's
 *   name, the listen address or a name of `--allowed-hosts`) is refused on every request;
 * - cross-site writes: a POST/PUT/PATCH/DELETE whose `Origin` is neither this server's own origin
 *   nor one of `--cors-allowed-origins` is refused;
 * - simple requests (jsonBodiesOnly): a write with a body must say `Content-Type: application/json`
 *   (a form or a text/plain body is what a cross-site page can send without asking); an artifact
 *   upload's body is the file, with the file's own type.
 * `--disable-security-middleware` turns all three off (behind a proxy that rewrites the headers).
 */

export interface CrossSiteOptions {
  /** The address the server listens on (`--host`). */
  listenHost: string;
  /** Host names allowed besides the defaults; `*` wildcards (`*.example.com`, `*`). */
  allowedHosts: readonly string[];
  /** Origins (`https://tracker.example.com`) allowed to write besides the server's own; `*` wildcards. */
  allowedOrigins: readonly string[];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A `*` wildcard pattern (case-insensitive) as a RegExp: `*.example.com`, `http://localhost:*`. */
function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .toLowerCase()
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`);
}

/** The host name of a `Host` header value (`[::1]:5000` → `::1`, `Example.com:80` → `example.com`). */
export function hostNameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(1, end);
  }
  const colon = value.lastIndexOf(":");
  // More than one colon without brackets: an IPv6 address without port.
  if (colon !== -1 && value.indexOf(":") === colon) return value.slice(0, colon);
  return value;
}

/** A predicate for the `Host` names this server answers to. */
export function hostChecker(listenHost: string, allowedHosts: readonly string[]): (hostHeader: string) => boolean {
  const names = new Set(["localhost", os.hostname().toLowerCase()]);
  const listen = hostNameOf(listenHost);
  if (listen !== "" && isIP(listen) === 0) names.add(listen);
  const patterns = allowedHosts.map((h) => wildcard(h.includes("*") ? h : hostNameOf(h)));
  return (hostHeader) => {
    const name = hostNameOf(hostHeader).replace(/\.$/, "");
    // An address cannot be rebound: only names are a DNS-rebinding risk.
    if (isIP(name) !== 0 || names.has(name) || name.endsWith(".localhost")) return true;
    return patterns.some((p) => p.test(name));
  };
}

/** A predicate for the `Origin`s allowed to write: the request's own, or a configured one. */
export function originChecker(allowedOrigins: readonly string[]): (origin: string, hostHeader: string) => boolean {
  const patterns = allowedOrigins.map((o) => wildcard(o.replace(/\/+$/, "")));
  return (origin, hostHeader) => {
    const value = origin.trim().toLowerCase();
    if (patterns.some((p) => p.test(value))) return true;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false; // `null` (sandboxed frames, file: pages) and anything unparsable
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    try {
      return url.host === new URL(`${url.protocol}//${hostHeader}`).host;
    } catch {
      return false;
    }
  };
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** True when the request carries a body (a length above 0 or a chunked one). */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return length.trim() !== "0";
  return req.headers["transfer-encoding"] !== undefined;
}

export function crossSiteGuard(options: CrossSiteOptions): RequestHandler {
  const hostAllowed = hostChecker(options.listenHost, options.allowedHosts);
  const originAllowed = originChecker(options.allowedOrigins);
  return (req, res, next) => {
    const host = req.headers.host;
    if (host !== undefined && !hostAllowed(host)) {
      sendError(
        res,
        "PERMISSION_DENIED",
        `Invalid Host header '${host.slice(0, 200)}': this server does not answer to that name (possible DNS rebinding). ` +
          "Add the name with --allowed-hosts (TRACKER_ALLOWED_HOSTS).",
      );
      return;
    }
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, host ?? "")) {
      sendError(
        res,
        "PERMISSION_DENIED",
        `Cross-origin request blocked: writes from origin '${origin.slice(0, 200)}' are not allowed. ` +
          "Add it with --cors-allowed-origins (TRACKER_CORS_ALLOWED_ORIGINS).",
      );
      return;
    }
    next();
  };
}

/**
 * Refuses a write whose body is not declared `application/json` (after authentication, so that an
 * unauthenticated request is told so first). `isRawUpload` names the requests whose body is a file.
 */
export function jsonBodiesOnly(isRawUpload: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    if (
      SAFE_METHODS.has(req.method) ||
      !hasBody(req) ||
      isRawUpload(req) ||
      JSON_MEDIA_TYPE.test(req.headers["content-type"] ?? "")
    ) {
      next();
      return;
    }
    sendError(
      res,
      "BAD_REQUEST",
      `Bad Request. Content-Type must be application/json, got '${(req.headers["content-type"] ?? "none").slice(0, 100)}'`,
    );
  };
}
