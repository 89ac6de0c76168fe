import http from "node:http";
import type { AddressInfo } from "node:net";
import { call, freePort, testDatabases, useTestServer } from "@tracker/testing";
import knexFactory, { type Knex } from "knex";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/config.js";
import { appReady, createApp } from "../app.js";
import { RETRY_AFTER_SECONDS } from "../error-handler.js";
import { handlers } from "./index.js";

describe.each(testDatabases())("health probes on %s", (kind) => {
  const suite = useTestServer(kind);

  it("answers liveness, readiness and /health with 200", async () => {
    expect(await call(suite.url, "GET", "/health/live")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await call(suite.url, "GET", "/health/ready")).toMatchObject({
      status: 200,
      body: { status: "ok", database: kind },
    });
    expect(await call(suite.url, "GET", "/health")).toMatchObject({
      status: 200,
      body: { status: "ok", database: kind },
    });
  });
});

describe("health probes while the database is down", () => {
  let knex: Knex;
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    // A PostgreSQL URL where nobody listens: every query fails at once with ECONNREFUSED.
    const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    knex = knexFactory({
      client: "pg",
      connection: databaseUrl,
      pool: { min: 0, max: 2, propagateCreateError: true },
      log: { warn: () => undefined },
    });
    const config = loadConfig({}, { databaseUrl, authToken: "secret", validateResponses: true });
    const app = createApp({
      services: { knex, databaseKind: "postgres", config },
      logger: pino({ level: "silent" }),
      handlers,
    });
    await appReady(app);
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await knex?.destroy();
  });

  it("keeps liveness at 200 (an orchestrator must not restart the process), without a token", async () => {
    const live = await call(url, "GET", "/health/live");
    expect(live).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers readiness and /health with 503 TEMPORARILY_UNAVAILABLE and Retry-After", async () => {
    for (const path of ["/health/ready", "/health"]) {
      const res = await call(url, "GET", path);
      expect(res.status, path).toBe(503);
      expect(res.body).toEqual({ error_code: "TEMPORARILY_UNAVAILABLE", message: "The database is unavailable" });
      expect(res.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    }
  });

  it("puts Retry-After on every 503, API operations included", async () => {
    const res = await call(url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, {
      authorization: "Bearer secret",
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
  });
});
