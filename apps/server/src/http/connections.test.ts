import { holdRequest, keepAliveConnection, startTestServer, type TestServer } from "@tracker/testing";
import { afterEach, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from "./connections.js";

/** Node's default keep-alive timeout, under which reused sockets were closed under clients. */
const NODE_DEFAULT_KEEP_ALIVE_MS = 5_000;

describe("keep-alive connections", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it("keeps an idle connection open past Node's old 5 s default, so a client reusing it is answered", async () => {
    server = await startTestServer("pglite");
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

  it("keeps the headers timeout above the keep-alive timeout and longer than common client idle times", () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
  });

  it("closes idle connections at once on close(), and a connection whose request was in flight once answered", async () => {
    server = await startTestServer("pglite");
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
