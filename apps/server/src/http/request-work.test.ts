import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import express from "express";
import { rawRequest } from "@tracker/testing";
import { afterEach, describe, expect, it } from "vitest";
import { manageConnections } from "./connections.js";
import { limitInFlightRequests } from "./in-flight-limit.js";
import { requestWork } from "./request-work.js";

/** A handler's work that waits for the test: `started` once it runs, finished by `release()`. */
function heldWork() {
  let release!: () => void;
  let markStarted!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const state = { done: false };
  const work = async () => {
    markStarted();
    await gate;
    state.done = true;
  };
  return { work, started, release, state };
}

/** Sends the head of a PUT announcing 1000 bytes and 3 of them; the body never ends. */
function cutLater(port: number): net.Socket {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write("PUT /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nabc");
  return socket;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

async function listening(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
}

/** A server whose requests run held work, and one upload to it whose handler has started. */
async function oneHeldUpload() {
  const held = heldWork();
  const { server, port } = await listening((_req, res) => void requestWork(res, held.work));
  const connections = manageConnections(server);
  const client = cutLater(port);
  await held.started;
  return { held, connections, client };
}

describe("a request is over when its handler has settled, not when its client has gone", () => {
  it("close() waits for the handler of a request whose client has gone (a cut upload cleaning up)", async () => {
    const held = heldWork();
    let answerClosed!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (answerClosed = resolve));
    const { server, port } = await listening((_req, res) => {
      res.once("close", answerClosed);
      void requestWork(res, held.work);
    });
    const connections = manageConnections(server);
    const client = cutLater(port);
    await held.started;
    client.destroy();
    await closedOnServer;
    expect(connections.activity()).toEqual({ received: 1, inFlight: 1 });
    let closed = false;
    const closing = connections.close();
    void closing.then(() => (closed = true));
    // Every connection has ended (the server's own close is done), and a turn of the event loop later:
    await once(server, "close");
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed, "close() resolved while the handler was still working").toBe(false);
    held.release();
    expect(await closing).toBe(0);
    expect(held.state.done).toBe(true);
    expect(connections.activity()).toEqual({ received: 1, inFlight: 0 });
  });

  it("after the drain timeout, close() cuts and resolves without the handlers, counting them", async () => {
    const { held, connections, client } = await oneHeldUpload();
    const cut = await connections.close(50);
    expect(cut).toBe(1);
    expect(held.state.done).toBe(false);
    held.release();
    client.destroy();
  });

  it("idle() resolves once the handlers of cut requests have settled", async () => {
    const { held, connections, client } = await oneHeldUpload();
    client.destroy();
    let idle = false;
    const idling = connections.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    held.release();
    await idling;
    expect(held.state.done).toBe(true);
    await connections.close();
  });

  it("the in-flight bound counts a cut request until its handler settles", async () => {
    const held = heldWork();
    let answerClosed!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (answerClosed = resolve));
    const app = express();
    app.use(limitInFlightRequests(1));
    app.use((req, res) => {
      if (req.method === "PUT") {
        res.once("close", answerClosed);
        void requestWork(res, held.work);
      } else res.end("ok");
    });
    const { server, port } = await listening(app);
    const connections = manageConnections(server);
    const client = cutLater(port);
    await held.started;
    client.destroy();
    await closedOnServer;
    expect((await rawRequest(port, "GET", "/other"))?.status).toBe(503);
    held.release();
    await connections.idle();
    expect((await rawRequest(port, "GET", "/other"))?.status).toBe(200);
    await connections.close();
  });

  it("does not start a handler for a request whose connection has already closed", async () => {
    let answerClosed!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (answerClosed = resolve));
    let ran = false;
    let later: Promise<unknown> | undefined;
    const { server, port } = await listening((_req, res) => {
      res.once("close", () => {
        later = requestWork(res, async () => {
          ran = true;
        });
        answerClosed();
      });
    });
    const connections = manageConnections(server);
    const client = cutLater(port);
    await new Promise((resolve) => client.write("", resolve));
    client.destroy();
    await closedOnServer;
    expect(await later).toBeUndefined();
    expect(ran).toBe(false);
    await connections.close();
  });
});
