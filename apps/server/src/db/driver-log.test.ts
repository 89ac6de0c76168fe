import { Writable } from "node:stream";
import { freePort } from "@tracker/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../logging/logger.js";
import { connectDatabase, type Database } from "./connect.js";
import { driverLog } from "./driver-log.js";

function jsonSink() {
  const records: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split("\n"))
        if (line.trim()) records.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger("debug", "json", stream), records };
}

const ACQUIRE_ERROR =
  "Acquire connection error: Error: connect ECONNREFUSED 127.0.0.1:5999\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)";

describe("database driver messages", () => {
  it("turn an outage into one warning, and one when the database is back", () => {
    const { logger, records } = jsonSink();
    const log = driverLog(logger);
    log.connected();
    for (let i = 0; i < 50; i++) log.log.warn!(ACQUIRE_ERROR);
    log.connected();
    log.connected();
    log.log.warn!(ACQUIRE_ERROR);
    const warnings = records.filter((r) => r.level === 40);
    expect(warnings.map((r) => r.msg)).toEqual([
      "database unreachable: answering 503 until it is back",
      "database reachable again",
      "database unreachable: answering 503 until it is back",
    ]);
    expect(warnings[0].cause).toBe("connect ECONNREFUSED 127.0.0.1:5999");
    expect(JSON.stringify(records)).not.toMatch(/TCPConnectWrap/);
  });

  it("do not call a busy pool (no free connection in time) an outage", () => {
    const { logger, records } = jsonSink();
    const log = driverLog(logger);
    for (const cause of ["Error: operation timed out for an unknown reason", "TimeoutError"])
      log.log.warn!(`Acquire connection error: ${cause}\n    at PendingOperation.js:18:27`);
    expect(records.filter((r) => (r.level as number) >= 40)).toEqual([]);
    expect(records.map((r) => r.msg)).toEqual([
      "no database connection free in time",
      "no database connection free in time",
    ]);
  });

  describe("with PostgreSQL unreachable", () => {
    let database: Database | undefined;
    afterEach(async () => {
      await database?.close();
      vi.restoreAllMocks();
    });

    it("logs one warning through the logger and prints nothing on the console", async () => {
      const consoleLog = vi.spyOn(console, "log");
      const consoleError = vi.spyOn(console, "error");
      const consoleWarn = vi.spyOn(console, "warn");
      const { logger, records } = jsonSink();
      const port = await freePort(); // nobody listens there
      database = connectDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, logger });
      for (let i = 0; i < 5; i++) await expect(database.knex.raw("select 1")).rejects.toThrow(/ECONNREFUSED/);
      expect(records.filter((r) => r.level === 40).map((r) => r.msg)).toEqual([
        "database unreachable: answering 503 until it is back",
      ]);
      expect(consoleLog).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      expect(consoleWarn).not.toHaveBeenCalled();
    });
  });
});
