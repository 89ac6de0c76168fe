import {
  connectionRefused,
  holdRequest,
  keepAliveConnection,
  startTestServer,
  type TestServer,
} from "@tracker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from "./connections.js";

/** Node's default keep-alive timeout, under which reused sockets were closed under clients. */
const NODE_DEFAULT_KEEP_ALIVE_MS = 5_000;

describe("keep-alive connections", () => {
  let server: TestServer | undefined;
  // Started in a hook: a test's time is its own work, not a cold start on a loaded machine.
  beforeEach(async () => {
    server = await startTestServer("pglite");
  });
  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it("keeps an idle connection open past Node's old 5 s default, so a client reusing it is answered", async () => {
    if (!server) throw new Error("no server");
    const connection = await keepAliveConnection(server.port);
    const first = await connection.get("/health");
    expect(first.status).toBe(200);
    expect(first.headers["keep-alive"]).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    let closedByServer = false;
    void connection.closed.then(() => (closedByServer = true));
    // Idle just past the old timeout, as a pooled client between two calls of a training loop.
    await new Promise((r) => setTimeout(r, NODE_DEFAULT_KEEP_ALIVE_MS + 500));
    expect(closedByServer).toBe(false);
    const second = await connection.get("/health");
    expect(second.status).toBe(200);
    connection.socket.destroy();
  });

  it("closes idle connections at once on close(), and a connection whose request was in flight once answered", async () => {
    if (!server) throw new Error("no server");
    const idle = await keepAliveConnection(server.port);
    expect((await idle.get("/health")).status).toBe(200);
    const held = await holdRequest(
      server.port,
      "POST",
      "/api/2.0/tracker/experiments/create",
      JSON.stringify({ name: "in-flight" }),
      {
        connection: "keep-alive",
      },
    );
    const closing = server.close();
    await idle.closed; // without waiting out the keep-alive timeout (the test would time out first)
    const answer = await held.finish();
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("close");
    await closing;
  });
});

describe("connection timeouts", () => {
  it("keeps the headers timeout above the keep-alive timeout and longer than common client idle times", () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
  });
});

describe("draining before shutdown", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it("keeps serving with readiness 503 and Connection: close on every answer, then stops accepting", async () => {
    // A delay far longer than the test: it ends by close(), which drain() would call after it.
    server = await startTestServer("pglite", { shutdownDelayMs: 3_600_000 });
    const balancer = await keepAliveConnection(server.port);
    expect((await balancer.get("/health/ready")).status).toBe(200);
    void server.drain();
    // The balancer's health check on its kept-alive connection: out of rotation, connection closed.
    const ready = await balancer.get("/health/ready");
    expect(ready.status).toBe(503);
    expect(ready.headers.connection).toBe("close");
    await balancer.closed;
    // A request that reaches the server meanwhile (the balancer has not noticed yet) is served.
    const late = await keepAliveConnection(server.port);
    const answer = await late.get("/health/live");
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("close");
    await late.closed;
    await server.close();
    expect(await connectionRefused(server.port)).toBe(true);
  });

  it("cuts the requests still in flight after the drain timeout, and says so", async () => {
    server = await startTestServer("pglite", { drainTimeoutMs: 200 });
    const held = await holdRequest(server.port, "POST", "/api/2.0/tracker/experiments/create", "{}");
    const cut = new Promise<void>((resolve) => held.socket.once("close", () => resolve()));
    await server.close(); // without the bound, this would wait for the body forever
    await cut;
  });
});
