import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger.js";
import { logSink } from "../logging/log-sink.js";
import { sendJson } from "./json-response.js";
import { requestLogging } from "./request-logging.js";

/** An app with the request log, a JSON route, a failing route and a 503; the records written. */
async function requests(level: string, paths: string[]) {
  const out = logSink();
  const logger = createLogger(level, "json", out.stream);
  const app = express();
  app.use(requestLogging(logger));
  app.use((req, _res, next) => {
    req.url = "/rewritten";
    next();
  });
  app.get("/rewritten", (req, res) => {
    if (req.originalUrl === "/fail") {
      req.log.error("handler failed");
      res.status(500).end();
    } else if (req.originalUrl === "/away") res.status(503).end();
    else if (req.originalUrl === "/missing") sendJson(res, { error_code: "RESOURCE_DOES_NOT_EXIST" }, 404);
    else sendJson(res, { ok: "é" });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as { port: number };
  const answers = [];
  for (const p of paths) {
    const res = await fetch(`http://127.0.0.1:${port}${p}`);
    answers.push({ status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() });
  }
  await new Promise((r) => server.close(r));
  return { answers, records: out.records() };
}

describe("request logging", () => {
  it("at info, one line per request: the request as it came, its status and duration", async () => {
    const { records } = await requests("info", ["/ok", "/missing", "/fail", "/away"]);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [30, "request completed"],
      [30, "request completed"],
      [50, "handler failed"],
      [50, "request errored"],
      [40, "request errored"],
    ]);
    expect(records[0]).toMatchObject({ req: { id: 1, method: "GET", url: "/ok" }, res: { statusCode: 200 } });
    expect(records[1]).toMatchObject({ req: { id: 2, url: "/missing" }, res: { statusCode: 404 } });
    for (const r of records.filter((r) => r.msg !== "handler failed")) {
      expect(typeof r.responseTime).toBe("number");
      expect(r.responseTime).toBeGreaterThanOrEqual(0);
    }
  });

  it("with info off, the same lines for failures only; req.log is bound to the request", async () => {
    const { records } = await requests("warn", ["/ok", "/fail", "/away"]);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [50, "handler failed"],
      [50, "request errored"],
      [40, "request errored"],
    ]);
    expect(records[0].req).toEqual({ id: 2, method: "GET", url: "/fail" });
    expect(records[1]).toMatchObject({ req: { id: 2, method: "GET", url: "/fail" }, res: { statusCode: 500 } });
    expect(records[1].err).toBeUndefined();
    expect(records[2]).toMatchObject({ req: { id: 3, url: "/away" }, res: { statusCode: 503 } });
  });
});

describe("req.log", () => {
  it("is absent on a request the log did not see, and can be replaced on one it saw", async () => {
    const out = logSink();
    const logger = createLogger("info", "json", out.stream);
    const replacement = createLogger("info", "json", out.stream).child({ replaced: true });
    const app = express();
    app.get("/before", (req, res) => {
      res.json({ hasLog: req.log !== undefined });
    });
    app.use(requestLogging(logger));
    app.get("/after", (req, res) => {
      req.log = replacement;
      req.log.info("replaced");
      res.json({ hasLog: req.log !== undefined });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    const answers = [];
    for (const p of ["/before", "/after", "/before"])
      answers.push(await (await fetch(`http://127.0.0.1:${port}${p}`)).json());
    await new Promise((r) => server.close(r));
    expect(answers).toEqual([{ hasLog: false }, { hasLog: true }, { hasLog: false }]);
    expect(out.records().find((r) => r.msg === "replaced")).toMatchObject({ replaced: true });
  });
});

describe("sendJson", () => {
  it("answers with the JSON body, its byte length and the JSON content type", async () => {
    const { answers } = await requests("warn", ["/ok", "/missing"]);
    expect(answers[0]).toMatchObject({
      status: 200,
      text: '{"ok":"é"}',
      headers: { "content-type": "application/json; charset=utf-8", "content-length": "11" },
    });
    expect(answers[1]).toMatchObject({ status: 404, text: '{"error_code":"RESOURCE_DOES_NOT_EXIST"}' });
    expect(answers[0].headers.etag).toBeUndefined();
  });
});

describe("request log headers", () => {
  async function logOneRequest(level: string): Promise<Record<string, unknown>> {
    const out = logSink();
    const logger = createLogger(level, "json", out.stream);
    const app = express();
    app.use(requestLogging(logger));
    app.get("/x", (_req, res) => {
      res.setHeader("x-extra", "1");
      res.json({});
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    await (
      await fetch(`http://127.0.0.1:${port}/x`, { headers: { "x-client": "abc", authorization: "Bearer secret" } })
    ).text();
    await new Promise((r) => server.close(r));
    return out.records().pop() as Record<string, unknown>;
  }

  it("keeps method, URL and status at info, without headers", async () => {
    const record = await logOneRequest("info");
    expect(record.req).toEqual({ id: 1, method: "GET", url: "/x" });
    expect(record.res).toEqual({ statusCode: 200 });
  });

  it("adds request and response headers at debug, never the credentials", async () => {
    const record = await logOneRequest("debug");
    const headers = (record.req as { headers: Record<string, string> }).headers;
    expect(headers["x-client"]).toBe("abc");
    expect(headers.authorization).toBe("[redacted]");
    expect((record.res as { headers: Record<string, string> }).headers["x-extra"]).toBe("1");
  });
});
