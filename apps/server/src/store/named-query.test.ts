import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type Database } from "../db/connect.js";
import { runStatement } from "./prepared.js";

/**
 * Named statements on PostgreSQL (store/named-query.ts): after a statement's first execution in
 * the process, executions on a connection where it is prepared skip the Describe message and take
 * the columns of the first; the rows, their types and the errors must be the same as pg's own.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("named statements on PostgreSQL", () => {
  let database: Database;
  /** Describe messages the pool's only connection has sent. */
  let describes = 0;

  beforeAll(async () => {
    // One connection: every execution after the first finds the statement prepared.
    database = connectDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, poolMax: 1 });
    const client = database.knex.client as {
      acquireConnection(): Promise<pg.Client & { connection: { describe(...args: unknown[]): void } }>;
      releaseConnection(c: unknown): Promise<unknown>;
    };
    const connection = await client.acquireConnection();
    const describe = connection.connection.describe.bind(connection.connection);
    connection.connection.describe = (...args: unknown[]) => {
      describes++;
      describe(...args);
    };
    await client.releaseConnection(connection);
  });
  afterAll(() => database?.close());

  const SQL = `SELECT CAST(? AS bigint) AS id, CAST(? AS text) AS name, CAST(NULL AS text) AS missing,
      json_build_array(CAST(? AS text), 1.5) AS tags, CAST(? AS double precision) AS value
    FROM generate_series(1, CAST(? AS int)) AS n ORDER BY n`;

  it("gives the same rows and types on every execution, with one Describe", async () => {
    const run = (rows: number) => runStatement(database.knex, SQL, [1234567890123, "a", "k", -0.5, rows], "test_named");
    const first = await run(2);
    expect(first.rows).toEqual([
      { id: 1234567890123, name: "a", missing: null, tags: ["k", 1.5], value: -0.5 },
      { id: 1234567890123, name: "a", missing: null, tags: ["k", 1.5], value: -0.5 },
    ]);
    const before = describes;
    expect((await run(2)).rows).toEqual(first.rows);
    expect((await run(0)).rows).toEqual([]);
    expect((await run(1)).rows).toEqual([first.rows[0]]);
    expect(describes).toBe(before);
  });

  it("fails as pg does, and leaves the connection usable", async () => {
    const divide = (by: number) => runStatement(database.knex, "SELECT 10 / CAST(? AS int) AS q", [by], "test_divide");
    expect((await divide(2)).rows).toEqual([{ q: 5 }]);
    await expect(divide(0)).rejects.toMatchObject({ code: "22012" });
    expect((await divide(5)).rows).toEqual([{ q: 2 }]);
    await expect(divide(0)).rejects.toMatchObject({ code: "22012" });
  });
});
