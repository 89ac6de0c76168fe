import { describe, expect, it } from "vitest";
import { createLogger, resolveLogFormat } from "./logger.js";
import { logSink } from "./log-sink.js";
import { humanMessage } from "./pretty.js";

describe("log format", () => {
  it("is human on a terminal and JSON otherwise, unless told", () => {
    expect(resolveLogFormat("auto", true)).toBe("pretty");
    expect(resolveLogFormat("auto", false)).toBe("json");
    expect(resolveLogFormat("json", true)).toBe("json");
    expect(resolveLogFormat("pretty", false)).toBe("pretty");
  });

  it("writes a request as one short line: method, path, status, duration", () => {
    const record = {
      level: 30,
      time: 0,
      req: { id: 1, method: "POST", url: "/api/2.0/tracker/runs/create" },
      res: { statusCode: 200 },
      responseTime: 3.4,
      msg: "request completed",
    };
    expect(humanMessage(record)).toBe("POST /api/2.0/tracker/runs/create 200 3 ms");
  });

  it("writes the start-up record as aligned lines", () => {
    const record = {
      startup: true,
      url: "http://127.0.0.1:5000",
      database: "PGlite (embedded) in /d/pgdata",
      artifactsDestination: "/d/artifacts",
      artifactRoot: "/shared/mlruns",
      namespace: "tracker",
      workers: 2,
      msg: "tracker server listening",
    };
    expect(humanMessage(record)).toBe(
      [
        "tracker server listening on http://127.0.0.1:5000",
        "  database   PGlite (embedded) in /d/pgdata",
        "  artifacts  /d/artifacts",
        "  root       /shared/mlruns",
        "  namespace  tracker",
        "  workers    2",
      ].join("\n"),
    );
  });

  it("writes other records as their message and fields", () => {
    expect(humanMessage({ msg: "shutting down", signal: "SIGTERM", pid: 1, service: "tracker" })).toBe(
      "shutting down signal=SIGTERM",
    );
    expect(humanMessage({ msg: "database unreachable", cause: "connect ECONNREFUSED 127.0.0.1:5432" })).toBe(
      'database unreachable cause="connect ECONNREFUSED 127.0.0.1:5432"',
    );
  });

  it("pretty: one line with time, level and message per record, no JSON", () => {
    const out = logSink();
    const logger = createLogger("info", "pretty", out.stream);
    logger.info(
      { req: { method: "GET", url: "/health" }, res: { statusCode: 200 }, responseTime: 1 },
      "request completed",
    );
    const lines = out.text().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/health 200 1 ms$/);
  });

  it("json: one JSON object per line", () => {
    const out = logSink();
    createLogger("info", "json", out.stream).info({ a: 1 }, "hello");
    expect(JSON.parse(out.text())).toMatchObject({ msg: "hello", a: 1, service: "tracker", level: 30 });
  });
});
