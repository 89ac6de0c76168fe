/**
 * What the web UI costs on the wire: the JSON of scrolling a runs table to its end, and how its
 * scripts and styles are served (compressed, hashed names, long max-age). Read from Chromium's
 * network events (DevTools protocol), so the figures are bytes as received, headers included.
 */
import type { BrowserContext, Page } from "playwright-core";

export interface Transfer {
  /** Requests of runs/search-columns while the table was scrolled to its end. */
  searchRequests: number;
  /** Bytes received for them (encoded: compressed body + headers). */
  searchWireBytes: number;
  /** Their JSON bodies once decoded. */
  searchJsonBytes: number;
  assets: Array<{ url: string; encoding: string; cacheControl: string; wireBytes: number; hashed: boolean }>;
}

interface Seen {
  url: string;
  headers: Record<string, string>;
  wire?: number;
  decoded: number;
}

/** Records every response of `page` from now on; `read()` gives them once they have finished. */
export async function watchNetwork(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const seen = new Map<string, Seen>();
  cdp.on("Network.responseReceived", (e) => {
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    seen.set(e.requestId, { url: e.response.url, headers, decoded: 0 });
  });
  cdp.on("Network.dataReceived", (e) => {
    const entry = seen.get(e.requestId);
    if (entry) entry.decoded += e.dataLength;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const entry = seen.get(e.requestId);
    if (entry) entry.wire = e.encodedDataLength;
  });
  return {
    read: (): Seen[] => [...seen.values()].filter((s) => s.wire !== undefined),
    clear: () => seen.clear(),
    detach: () => cdp.detach(),
  };
}

/** Vite's output names: `<name>-<8+ char hash>.<ext>`. */
export const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.(js|css)$/;

export function summarise(responses: readonly Seen[]): Transfer {
  const searches = responses.filter((r) => r.url.includes("/runs/search-columns"));
  const assets = responses
    .filter((r) => /\.(js|css)(\?|$)/.test(r.url))
    .map((r) => ({
      url: new URL(r.url).pathname,
      encoding: r.headers["content-encoding"] ?? "identity",
      cacheControl: r.headers["cache-control"] ?? "",
      wireBytes: r.wire ?? 0,
      hashed: HASHED_ASSET.test(new URL(r.url).pathname),
    }));
  return {
    searchRequests: searches.length,
    searchWireBytes: searches.reduce((sum, r) => sum + (r.wire ?? 0), 0),
    searchJsonBytes: searches.reduce((sum, r) => sum + r.decoded, 0),
    assets,
  };
}

/** max-age of a Cache-Control header in seconds (0 when absent). */
export function maxAge(cacheControl: string): number {
  return Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
}
