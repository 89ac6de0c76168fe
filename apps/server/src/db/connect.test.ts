import os from "node:os";
import { describe, expect, it } from "vitest";
import { connectDatabase, defaultPoolSize } from "./connect.js";

describe("the default pool size", () => {
  const whole = Math.max(10, 4 * os.availableParallelism());

  it("is 4 connections per core, at least 10, shared out among the workers (at least 2 each)", () => {
    expect(defaultPoolSize({})).toBe(whole);
    expect(defaultPoolSize({}, 2)).toBe(Math.ceil(whole / 2));
    expect(defaultPoolSize({}, 3)).toBe(Math.ceil(whole / 3));
    expect(defaultPoolSize({}, 1000)).toBe(2);
  });

  it("is TRACKER_DB_POOL_MAX per process when set, whatever the worker count", () => {
    expect(defaultPoolSize({ TRACKER_DB_POOL_MAX: "7" }, 4)).toBe(7);
    expect(() => defaultPoolSize({ TRACKER_DB_POOL_MAX: "0" })).toThrow(/TRACKER_DB_POOL_MAX/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("connections to PostgreSQL", () => {
  it("have JIT compilation off (it cost more than the statements it compiled)", async () => {
    const database = connectDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, poolMax: 2 });
    try {
      // Two connections at once: every connection of the pool gets the setting, not just the first.
      const settings = await Promise.all(
        [0, 1].map(() => database.knex.raw("SELECT current_setting('jit') AS jit, pg_sleep(0.05)")),
      );
      expect(settings.map((r) => (r.rows as Array<{ jit: string }>)[0]!.jit)).toEqual(["off", "off"]);
    } finally {
      await database.close();
    }
  });
});
