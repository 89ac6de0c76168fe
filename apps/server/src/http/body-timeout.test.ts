import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { limitBodyIdleTime, type BodyIdleLimit } from "./body-timeout.js";

/** A server that reads each body and answers its length, with the idle limit on. */
async function serve(idleMs: number): Promise<{ url: URL; limit: BodyIdleLimit; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let length = 0;
    req.on("data", (chunk: Buffer) => {
      length += chunk.length;
    });
    req.on("end", () => res.end(String(length)));
  });
  const limit = limitBodyIdleTime(server, idleMs);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/`), limit, server };
}

let open: http.Server | undefined;
afterEach(async () => {
  open?.closeAllConnections();
  await new Promise((resolve) => open?.close(resolve));
  open = undefined;
});

describe("limitBodyIdleTime", () => {
  it("forgets a request as soon as its body has arrived, not at its next check", async () => {
    const { url, limit, server } = await serve(60_000);
    open = server;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(url, { method: "POST", body: "x".repeat(1000 + i) });
      expect(await res.text()).toBe(String(1000 + i));
    }
    // The periodic check runs every 15 s here: only the requests' own end could have removed them.
    expect(limit.watching()).toBe(0);
  });

  it("watches a body that has not all arrived, and forgets it when the client goes", async () => {
    const { url, limit, server } = await serve(60_000);
    open = server;
    const req = http.request(url, { method: "POST", headers: { "content-length": "100" } });
    req.on("error", () => undefined);
    req.write("x".repeat(10));
    await expect.poll(() => limit.watching()).toBe(1);
    req.destroy();
    await expect.poll(() => limit.watching()).toBe(0);
  });

  it("closes a connection whose body stalls past the limit", async () => {
    const { url, limit, server } = await serve(200);
    open = server;
    const closed = new Promise<string>((resolve) => {
      const req = http.request(url, { method: "POST", headers: { "content-length": "100" } });
      req.on("error", (err) => resolve(err.message));
      req.write("x".repeat(10));
    });
    expect(await closed).toMatch(/socket hang up|ECONNRESET/);
    expect(limit.watching()).toBe(0);
  });
});
