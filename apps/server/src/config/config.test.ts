import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_DB_ACQUIRE_TIMEOUT_MS,
  DEFAULT_READINESS_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  loadConfig,
  parseDuration,
} from "./config.js";

describe("database timeouts in the configuration", () => {
  it("default to 30 s per statement, 10 s for a connection and 2 s for readiness", () => {
    expect(loadConfig({})).toMatchObject({
      statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS,
      dbAcquireTimeoutMs: DEFAULT_DB_ACQUIRE_TIMEOUT_MS,
      readinessTimeoutMs: DEFAULT_READINESS_TIMEOUT_MS,
    });
    expect([DEFAULT_STATEMENT_TIMEOUT_MS, DEFAULT_DB_ACQUIRE_TIMEOUT_MS, DEFAULT_READINESS_TIMEOUT_MS]).toEqual([
      30_000, 10_000, 2_000,
    ]);
  });

  it("read durations from the environment, a flag's value winning", () => {
    const env = {
      TRACKER_STATEMENT_TIMEOUT: "5s",
      TRACKER_DB_ACQUIRE_TIMEOUT: "1500ms",
      TRACKER_READINESS_TIMEOUT: "250",
    };
    expect(loadConfig(env)).toMatchObject({
      statementTimeoutMs: 5_000,
      dbAcquireTimeoutMs: 1_500,
      readinessTimeoutMs: 250,
    });
    expect(loadConfig(env, { statementTimeoutMs: 0 }).statementTimeoutMs).toBe(0);
    expect(loadConfig({ TRACKER_STATEMENT_TIMEOUT: "0" }).statementTimeoutMs).toBe(0);
  });

  it.each([
    ["30s", 30_000],
    ["500ms", 500],
    ["2m", 120_000],
    ["1.5s", 1_500],
    [" 250 ", 250],
  ])("parse %j as %i ms", (raw, ms) => {
    expect(parseDuration(raw, "x")).toBe(ms);
  });

  it.each(["", "soon", "-1s", "25h", "1e3", "0"])("refuse %j with a message that says what is expected", (raw) => {
    expect(() => parseDuration(raw, "TRACKER_READINESS_TIMEOUT")).toThrow(ConfigError);
    expect(() => parseDuration(raw, "TRACKER_READINESS_TIMEOUT")).toThrow(
      /TRACKER_READINESS_TIMEOUT must be a duration from 1 ms to 24 h such as 30s/,
    );
  });

  it("refuse 0 for the pool and readiness timeouts, and allow it (no limit) for statements", () => {
    expect(() => loadConfig({ TRACKER_DB_ACQUIRE_TIMEOUT: "0" })).toThrow(/TRACKER_DB_ACQUIRE_TIMEOUT must be/);
    expect(() => loadConfig({ TRACKER_READINESS_TIMEOUT: "0s" })).toThrow(/TRACKER_READINESS_TIMEOUT must be/);
    expect(() => loadConfig({ TRACKER_STATEMENT_TIMEOUT: "25h" })).toThrow(/TRACKER_STATEMENT_TIMEOUT must be/);
  });
});
