import { describe, expect, it } from "vitest";
import { testDatabases, useExperimentSuite } from "@tracker/testing";
import { currentLifecycleStage } from "./run-lifecycle-reads.js";

/**
 * Concurrent lifecycle checks share statements (run-lifecycle-reads.ts) and never answer older
 * data than their request: a check asked after a delete sees the delete.
 */
describe.each(testDatabases())("shared run lifecycle reads on %s", (kind) => {
  const suite = useExperimentSuite(kind, "lifecycle-reads");

  /** The statements on the runs table sent while `work` runs, with its result. */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const statements: string[] = [];
    const record = (query: { sql: string }) => {
      if (/lifecycle_stage/.test(query.sql)) statements.push(query.sql);
    };
    const { knex } = suite.server.database;
    knex.on("query", record);
    try {
      return { result: await work(), statements };
    } finally {
      knex.off("query", record);
    }
  }

  it("answers many checks asked at once with one statement", async () => {
    const runs = [await suite.newRun(), await suite.newRun(), await suite.newRun()];
    await suite.api.post("runs/delete", { run_id: runs[2] });
    const { knex } = suite.server.database;
    const asked = [...runs, ...runs, "f".repeat(32)];
    const { result, statements } = await statementsOf(() =>
      Promise.all(asked.map((id) => currentLifecycleStage(knex, id))),
    );
    expect(result).toEqual(["active", "active", "deleted", "active", "active", "deleted", undefined]);
    expect(statements).toHaveLength(1);
  });

  it("sends the checks asked while a read runs together in the next statement", async () => {
    const runs = [await suite.newRun(), await suite.newRun()];
    const { knex } = suite.server.database;
    const { result, statements } = await statementsOf(async () => {
      const first = currentLifecycleStage(knex, runs[0]!);
      // The first read is under way (it starts after the current turn of the event loop).
      await new Promise((resolve) => setImmediate(resolve));
      const later = Array.from({ length: 10 }, (_, i) => currentLifecycleStage(knex, runs[i % 2]!));
      return Promise.all([first, ...later]);
    });
    expect(result).toEqual(Array(11).fill("active"));
    expect(statements).toHaveLength(2);
  });

  it("answers a check asked after a delete with the delete, never with an earlier read", async () => {
    const runId = await suite.newRun();
    const { knex } = suite.server.database;
    const before = currentLifecycleStage(knex, runId);
    await new Promise((resolve) => setImmediate(resolve));
    // The run goes while the first read may still be running; a check asked afterwards must not share it.
    await knex("runs").where({ run_uuid: runId }).update({ lifecycle_stage: "deleted" });
    const after = await currentLifecycleStage(knex, runId);
    expect(after).toBe("deleted");
    expect(await before).toMatch(/^(active|deleted)$/);
  });
});
