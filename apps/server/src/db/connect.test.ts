import { describe, expect, it } from "vitest";
import { connectDatabase } from "./connect.js";

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
