import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import {
  call,
  errorAnswerProblems,
  leaksIn,
  sendRaw,
  testDatabases,
  type RawAnswer,
  useTestServer,
} from "@tracker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import { appReady, createApp } from "./app.js";
import { errorHandler } from "./error-handler.js";
import { handlers } from "./handlers/index.js";
import { tokensMatch } from "./security.js";

/**
 * The error handler never shows a stack trace or SQL, and the optional bearer token
 * (TRACKER_AUTH_TOKEN) never reaches the log. (The black-box security suite is tooling/reliability.)
 */

describe("error bodies carry no stack trace and no SQL", () => {
  // The error handler alone, fed what handlers, drivers and parsers really throw.
  const app = express();
  const sqlError = Object.assign(
    new Error('select "run_uuid" from "runs" where "x" = $1 - syntax error at or near "x"'),
    { code: "42601", severity: "ERROR" },
  );
  const thrown: Record<string, () => unknown> = {
    plain: () => new Error("boom at Object.<anonymous> (/work/main/apps/server/src/x.ts:1:2)"),
    sql: () => sqlError,
    typeError: () => {
      try {
        (undefined as unknown as { a: number }).a.toFixed();
      } catch (err) {
        return err;
      }
    },
    nul: () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
    range: () =>
      Object.assign(new Error('value "99999999999999999999" is out of range for type bigint'), { code: "22003" }),
    deep: () => new RangeError("Maximum call stack size exceeded"),
    down: () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    terminated: () => new Error("Connection terminated unexpectedly"),
    shutdown: () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    poolTimeout: () =>
      Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), {
        name: "KnexTimeoutError",
      }),
    unique: () =>
      Object.assign(new Error('duplicate key value violates unique constraint "experiments_name_key"'), {
        code: "23505",
      }),
    string: () => "a thrown string",
  };
  const expected: Record<string, [number, string]> = {
    plain: [500, "INTERNAL_ERROR"],
    sql: [500, "INTERNAL_ERROR"],
    typeError: [500, "INTERNAL_ERROR"],
    nul: [400, "INVALID_PARAMETER_VALUE"],
    range: [400, "INVALID_PARAMETER_VALUE"],
    deep: [400, "INVALID_PARAMETER_VALUE"],
    down: [503, "TEMPORARILY_UNAVAILABLE"],
    terminated: [503, "TEMPORARILY_UNAVAILABLE"],
    shutdown: [503, "TEMPORARILY_UNAVAILABLE"],
    poolTimeout: [503, "TEMPORARILY_UNAVAILABLE"],
    unique: [500, "INTERNAL_ERROR"],
    string: [500, "INTERNAL_ERROR"],
  };
  app.get("/throw/:kind", (req) => {
    throw thrown[req.params.kind]();
  });
  app.use(errorHandler);
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(Object.keys(thrown))("%s", async (kind) => {
    const answer = await sendRaw(url, "GET", `/throw/${kind}`);
    const [status, code] = expected[kind];
    expect(answer.status).toBe(status);
    const body = JSON.parse(answer.text) as { error_code: string; message: string };
    expect(body.error_code).toBe(code);
    expect(Object.keys(body).sort()).toEqual(["error_code", "message"]);
    expect(leaksIn(body.message), body.message).toEqual([]);
    expect(body.message).not.toMatch(
      /select|syntax|runs|\/work\/|\.ts:|0x00|bigint|ECONNREFUSED|5432|Knex|duplicate|experiments_name_key|undefined/i,
    );
  });

  it("the leak detector itself recognises stack frames, paths and SQL", () => {
    expect(leaksIn("Error: x\n    at foo (/a/b.ts:1:2)")).toContain("stack frame");
    expect(leaksIn("failed in /work/main/apps/server/dist/x.js:10")).toContain("source path");
    expect(leaksIn('syntax error at or near "DROP"')).toContain("PostgreSQL message");
    expect(leaksIn('insert into "runs" ("a") values ($1)')).toContain("SQL text");
    expect(leaksIn("Invalid value for 'name': must NOT have more than 500 characters")).toEqual([]);
    // Echoes of what the client sent are not leaks.
    expect(leaksIn("Invalid filter 'select * from runs where x'", ["select * from runs where x"])).toEqual([]);
  });
});

describe.each(testDatabases())("optional bearer-token authentication (%s)", (kind) => {
  const TOKEN = "s3cret-Token_with.chars~";
  const suite = useTestServer(kind, { authToken: TOKEN });
  let logged = "";
  let loggingServer: http.Server | undefined;
  let loggingUrl = "";
  beforeAll(async () => {
    // The same app with a logger we can read, to prove the token never reaches the log.
    const sink = new Writable({
      write(chunk, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const config = loadConfig({}, { dataDir: suite.server.dataDir, authToken: TOKEN, logLevel: "debug" });
    const app = createApp({
      services: { knex: suite.server.database.knex, databaseKind: suite.server.database.kind, config },
      logger: pino({ level: "debug" }, sink),
      handlers,
    });
    await appReady(app);
    loggingServer = http.createServer(app);
    await new Promise<void>((resolve) => loggingServer!.listen(0, "127.0.0.1", resolve));
    loggingUrl = `http://127.0.0.1:${(loggingServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (loggingServer ? loggingServer.close(() => resolve()) : resolve()));
  });

  const expect401 = (answer: RawAnswer, what: string) => {
    expect(answer.status, `${what}: ${answer.text}`).toBe(401);
    expect(errorAnswerProblems(answer)).toEqual([]);
    expect(JSON.parse(answer.text).error_code).toBe("UNAUTHENTICATED");
    expect(answer.headers["www-authenticate"]).toMatch(/^Bearer realm="tracker"/);
  };

  it("refuses requests without the token, or with another one, with 401 UNAUTHENTICATED", async () => {
    const paths = [
      ["GET", "/api/2.0/tracker/experiments/get?experiment_id=0"],
      ["POST", "/api/2.0/tracker/experiments/search"],
      ["GET", "/api/2.0/preview/tracker/experiments/list"],
      ["GET", "/ajax-api/2.0/mlflow/experiments/get?experiment_id=0"],
      ["POST", "/api/2.0/mlflow/runs/search"],
      ["GET", "/api/2.0/preview/tracker/registered-models/list"],
      ["GET", "/nothing/here"],
    ] as const;
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: "" },
      { authorization: "Bearer" },
      { authorization: "Bearer " },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN.toUpperCase()}` },
      { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}` },
      { authorization: TOKEN },
      { authorization: `Token ${TOKEN}` },
    ];
    for (const [method, p] of paths) {
      for (const headers of wrong) {
        const answer = await sendRaw(suite.url, method, p, method === "POST" ? "{}" : undefined, headers);
        expect401(answer, `${method} ${p} ${JSON.stringify(headers)}`);
      }
    }
  });

  it("refuses before reading the body: an unauthenticated body over 1 MB is 401, not 413", async () => {
    const answer = await sendRaw(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/create",
      JSON.stringify({ name: "x".repeat(1_200_000) }),
    );
    expect401(answer, "big body");
  });

  it("serves requests with the right token (scheme case-insensitive), and /health without one", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const answer = await sendRaw(suite.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, {
        authorization: `${scheme} ${TOKEN}`,
      });
      expect(answer.status, answer.text).toBe(200);
    }
    const created = await call(
      suite.url,
      "POST",
      "/ajax-api/2.0/mlflow/experiments/create",
      { name: "with token" },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(created.status).toBe(200);
    const health = await sendRaw(suite.url, "GET", "/health");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: "ok" });
  });

  it("never writes the token to the log", async () => {
    await sendRaw(loggingUrl, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, {
      authorization: `Bearer ${TOKEN}`,
    });
    await sendRaw(loggingUrl, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, {
      authorization: `Bearer wrong-${TOKEN}`,
    });
    expect(logged).toMatch(/experiments\/get/);
    expect(logged).toMatch(/\[redacted\]/);
    expect(logged).not.toContain(TOKEN);
  });

  it("reads TRACKER_AUTH_TOKEN; an empty value means no authentication", () => {
    expect(loadConfig({ TRACKER_AUTH_TOKEN: "abc" }).authToken).toBe("abc");
    expect(loadConfig({ TRACKER_AUTH_TOKEN: "" }).authToken).toBeUndefined();
    expect(loadConfig({}).authToken).toBeUndefined();
  });

  it("compares tokens by their digests (constant time, any length)", () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
    expect(tokensMatch("", TOKEN)).toBe(false);
    expect(tokensMatch(TOKEN + TOKEN, TOKEN)).toBe(false);
  });
});
