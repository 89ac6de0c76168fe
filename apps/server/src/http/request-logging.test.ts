import { Writable } from "node:stream";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger.js";
import { sendJson } from "./json-response.js";
import { requestLogging } from "./request-logging.js";

/** A destination that keeps what the logger wrote. */
function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    records: () =>
      text
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

/** An app with the request log, a JSON route, a failing route and a 503; the records written. */
async function requests(level: string, paths: string[]) {
  const out = sink();
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
    else sendJson(res, { ok: "é" }, false);
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

describe("request logging with info off", () => {
  it("writes only failures, as pino-http does, with the request as it came", async () => {
    const { records } = await requests("warn", ["/ok", "/fail", "/away"]);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [50, "handler failed"],
      [50, "request errored"],
      [40, "request errored"],
    ]);
    expect(records[0].req).toEqual({ id: 2, method: "GET", url: "/fail" });
    expect(records[1]).toMatchObject({ req: { id: 2, method: "GET", url: "/fail" }, res: { statusCode: 500 } });
    expect(records[1].err).toBeUndefined();
    expect(typeof records[1].responseTime).toBe("number");
    expect(records[2]).toMatchObject({ req: { id: 3, url: "/away" }, res: { statusCode: 503 } });
  });

  it("at info, a line per request (pino-http)", async () => {
    const { records } = await requests("info", ["/ok", "/fail"]);
    expect(records.map((r) => r.msg)).toEqual(["request completed", "handler failed", "request errored"]);
    expect(records[0]).toMatchObject({ req: { id: 1, method: "GET", url: "/ok" }, res: { statusCode: 200 } });
  });
});

describe("sendJson", () => {
  it("answers 200 with the JSON body, its byte length and the JSON content type", async () => {
    const { answers } = await requests("warn", ["/ok"]);
    expect(answers[0]).toMatchObject({
      status: 200,
      text: '{"ok":"é"}',
      headers: { "content-type": "application/json; charset=utf-8", "content-length": "11" },
    });
  });
});
