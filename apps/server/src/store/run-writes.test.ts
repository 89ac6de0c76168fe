import { describe, expect, it } from "vitest";
import { testDatabases, useExperimentSuite } from "@tracker/testing";

/**
 * Single-row writes are one statement each, without BEGIN/COMMIT (store/run-writes.ts,
 * store/experiments.ts), and keep their answers and errors: missing run 404, deleted run 400,
 * changed param 400, missing tag 404, deleted or missing experiment.
 */
describe.each(testDatabases())("single-statement writes on %s", (kind) => {
  const suite = useExperimentSuite(kind, "writes");
  const { api, newRun } = suite;

  /** The statements one request sends, with its answer. */
  async function statementsOf(op: string, body: Record<string, unknown>) {
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    suite.server.database.knex.on("query", record);
    try {
      const res = await api.post<Record<string, unknown>>(op, body);
      return { res, statements };
    } finally {
      suite.server.database.knex.off("query", record);
    }
  }

  it("sends one statement, with no transaction, for each single-row write", async () => {
    const id = await newRun();
    const cases: Array<[string, Record<string, unknown>]> = [
      ["experiments/create", { name: "writes-2", tags: [{ key: "a", value: "1" }] }],
      ["experiments/set-experiment-tag", { experiment_id: suite.experimentId, key: "k", value: "v" }],
      ["runs/create", { experiment_id: suite.experimentId, run_name: "r", tags: [{ key: "t", value: "1" }] }],
      ["runs/set-tag", { run_id: id, key: "t", value: "v" }],
      ["runs/set-tag", { run_id: id, key: "tracker.runName", value: "renamed" }],
      ["runs/delete-tag", { run_id: id, key: "t" }],
      ["runs/log-parameter", { run_id: id, key: "p", value: "1" }],
      ["runs/log-parameter", { run_id: id, key: "p", value: "1" }],
      ["runs/update", { run_id: id, status: "FINISHED", end_time: 5, run_name: "final" }],
    ];
    for (const [op, body] of cases) {
      const { res, statements } = await statementsOf(op, body);
      expect(res.status, `${op} ${JSON.stringify(res.body)}`).toBe(200);
      expect(statements, `${op}: ${statements.join(" ; ")}`).toHaveLength(1);
      expect(statements[0]).not.toMatch(/^\s*(BEGIN|COMMIT)/i);
    }
  });

  it("answers with what was written", async () => {
    const created = await api.post<{
      run: { info: Record<string, unknown>; data: { tags: Array<{ key: string; value: string }> } };
    }>("runs/create", {
      experiment_id: suite.experimentId,
      run_name: "first",
      start_time: 1234,
      tags: [
        { key: "b", value: "2" },
        { key: "a", value: "1" },
        { key: "b", value: "3" },
      ],
    });
    expect(created.body.run.info).toMatchObject({
      run_name: "first",
      status: "RUNNING",
      start_time: 1234,
      lifecycle_stage: "active",
      experiment_id: suite.experimentId,
    });
    const runId = created.body.run.info.run_id as string;
    expect(created.body.run.info.artifact_uri).toMatch(new RegExp(`/${runId}/artifacts$`));
    expect(created.body.run.data.tags.filter((t) => !t.key.startsWith("tracker."))).toEqual([
      { key: "a", value: "1" },
      { key: "b", value: "3" },
    ]);
    // The answer equals what runs/get reads afterwards.
    const got = await api.get<{ run: { info: unknown; data: { tags: unknown } } }>("runs/get", { run_id: runId });
    expect(got.body.run.info).toEqual(created.body.run.info);
    expect(got.body.run.data.tags).toEqual(created.body.run.data.tags);

    const updated = await api.post<{ run_info: Record<string, unknown> }>("runs/update", {
      run_id: runId,
      status: "FAILED",
      run_name: "second",
    });
    expect(updated.body.run_info).toMatchObject({ run_name: "second", status: "FAILED", start_time: 1234 });
    expect(updated.body.run_info).not.toHaveProperty("end_time");
    const ended = await api.post<{ run_info: Record<string, unknown> }>("runs/update", { run_id: runId, end_time: 99 });
    expect(ended.body.run_info).toMatchObject({ run_name: "second", status: "FAILED", end_time: 99 });
    const after = await api.get<{ run: { data: { tags: Array<{ key: string; value: string }> } } }>("runs/get", {
      run_id: runId,
    });
    expect(after.body.run.data.tags).toContainEqual({ key: "tracker.runName", value: "second" });

    await api.post("runs/set-tag", { run_id: runId, key: "tracker.runName", value: "third" });
    expect(
      (await api.get<{ run: { info: { run_name: string } } }>("runs/get", { run_id: runId })).body.run.info.run_name,
    ).toBe("third");

    const exp = await api.post<{ experiment_id: string }>("experiments/create", {
      name: "with-tags",
      tags: [
        { key: "x", value: "1" },
        { key: "x", value: "2" },
      ],
    });
    const experiment = await api.get<{ experiment: { tags: unknown; artifact_location: string } }>("experiments/get", {
      experiment_id: exp.body.experiment_id,
    });
    expect(experiment.body.experiment.tags).toEqual([{ key: "x", value: "2" }]);
    expect(experiment.body.experiment.artifact_location).toMatch(new RegExp(`${exp.body.experiment_id}$`));
    const located = await api.post<{ experiment_id: string }>("experiments/create", {
      name: "located",
      artifact_location: "/somewhere/else",
    });
    expect(
      (
        await api.get<{ experiment: { artifact_location: string } }>("experiments/get", {
          experiment_id: located.body.experiment_id,
        })
      ).body.experiment.artifact_location,
    ).toBe("/somewhere/else");
  });

  it("keeps the errors: missing run, deleted run, changed param, missing tag, experiments", async () => {
    const missing = "f".repeat(32);
    const deleted = await newRun();
    await api.post("runs/log-parameter", { run_id: deleted, key: "p", value: "1" });
    await api.post("runs/delete", { run_id: deleted });
    const writes: Array<[string, Record<string, unknown>]> = [
      ["runs/set-tag", { key: "t", value: "v" }],
      ["runs/set-tag", { key: "tracker.runName", value: "v" }],
      ["runs/delete-tag", { key: "t" }],
      ["runs/log-parameter", { key: "p", value: "1" }],
      ["runs/update", { status: "FINISHED" }],
    ];
    for (const [op, body] of writes) {
      const absent = await api.post<{ error_code: string; message: string }>(op, { ...body, run_id: missing });
      expect([op, absent.status, absent.body.error_code]).toEqual([op, 404, "RESOURCE_DOES_NOT_EXIST"]);
      expect(absent.body.message).toBe(`Run with id=${missing} not found`);
      const gone = await api.post<{ error_code: string; message: string }>(op, { ...body, run_id: deleted });
      expect([op, gone.status, gone.body.error_code]).toEqual([op, 400, "INVALID_PARAMETER_VALUE"]);
      expect(gone.body.message).toBe(`The run ${deleted} must be in the 'active' state. Current state is deleted.`);
    }
    // Nothing was written to the deleted run.
    await api.post("runs/restore", { run_id: deleted });
    const restored = await api.get<{
      run: { info: { status: string; run_name: string }; data: { tags?: Array<{ key: string }> } };
    }>("runs/get", { run_id: deleted });
    expect(restored.body.run.info.status).toBe("RUNNING");
    expect(restored.body.run.info.run_name).not.toBe("v");
    expect((restored.body.run.data.tags ?? []).map((t) => t.key)).not.toContain("t");

    const id = await newRun();
    expect((await api.post("runs/log-parameter", { run_id: id, key: "p", value: "1" })).status).toBe(200);
    const changed = await api.post<{ error_code: string; message: string }>("runs/log-parameter", {
      run_id: id,
      key: "p",
      value: "2",
    });
    expect([changed.status, changed.body.error_code]).toEqual([400, "INVALID_PARAMETER_VALUE"]);
    expect(changed.body.message).toContain("Changing param values is not allowed");
    const noTag = await api.post<{ error_code: string }>("runs/delete-tag", { run_id: id, key: "never" });
    expect([noTag.status, noTag.body.error_code]).toEqual([404, "RESOURCE_DOES_NOT_EXIST"]);

    const dup = await api.post<{ error_code: string }>("experiments/create", { name: "writes" });
    expect([dup.status, dup.body.error_code]).toEqual([400, "RESOURCE_ALREADY_EXISTS"]);
    const doomed = (await api.post<{ experiment_id: string }>("experiments/create", { name: "doomed" })).body
      .experiment_id;
    await api.post("experiments/delete", { experiment_id: doomed });
    const inDeleted = await api.post<{ error_code: string }>("runs/create", { experiment_id: doomed });
    expect([inDeleted.status, inDeleted.body.error_code]).toEqual([400, "INVALID_PARAMETER_VALUE"]);
    const inMissing = await api.post<{ error_code: string; message: string }>("runs/create", {
      experiment_id: "987654",
    });
    expect([inMissing.status, inMissing.body.error_code, inMissing.body.message]).toEqual([
      404,
      "RESOURCE_DOES_NOT_EXIST",
      "No Experiment with id=987654 exists",
    ]);
    const tagDeleted = await api.post<{ error_code: string }>("experiments/set-experiment-tag", {
      experiment_id: doomed,
      key: "k",
      value: "v",
    });
    expect([tagDeleted.status, tagDeleted.body.error_code]).toEqual([400, "INVALID_PARAMETER_VALUE"]);
    const tagMissing = await api.post<{ error_code: string }>("experiments/set-experiment-tag", {
      experiment_id: "987654",
      key: "k",
      value: "v",
    });
    expect([tagMissing.status, tagMissing.body.error_code]).toEqual([404, "RESOURCE_DOES_NOT_EXIST"]);
  });

  it("concurrent logs of one param: equal values all succeed, a different value is refused, never a 500", async () => {
    for (let round = 0; round < 5; round++) {
      const id = await newRun();
      const same = await Promise.all(
        Array.from({ length: 6 }, () => api.post("runs/log-parameter", { run_id: id, key: "lr", value: "0.1" })),
      );
      expect(same.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const mixed = await Promise.all(
        ["a", "b", "a", "b"].map((value) => api.post("runs/log-parameter", { run_id: id, key: `k${round}`, value })),
      );
      const ok = mixed.filter((r) => r.status === 200).length;
      expect(mixed.every((r) => r.status === 200 || r.status === 400)).toBe(true);
      expect(ok).toBe(2);
    }
  });
  it("a param batch is one statement; a changed value writes nothing of the batch", async () => {
    const id = await newRun();
    const batch = {
      run_id: id,
      params: [
        { key: "a", value: "1" },
        { key: "b", value: "2" },
      ],
    };
    for (let i = 0; i < 2; i++) {
      const { res, statements } = await statementsOf("runs/log-batch", batch);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(statements, statements.join(" ; ")).toHaveLength(1);
    }
    const changed = await api.post<{ error_code: string; message: string }>("runs/log-batch", {
      run_id: id,
      params: [
        { key: "c", value: "3" },
        { key: "a", value: "9" },
      ],
    });
    expect([changed.status, changed.body.error_code]).toEqual([400, "INVALID_PARAMETER_VALUE"]);
    expect(changed.body.message).toBe(
      `Changing param values is not allowed. Param with key='a' was already logged with value='1' for run ID='${id}'. Attempted logging new value '9'.`,
    );
    const run = await api.get<{ run: { data: { params: Array<{ key: string; value: string }> } } }>("runs/get", {
      run_id: id,
    });
    expect(run.body.run.data.params).toEqual([
      { key: "a", value: "1" },
      { key: "b", value: "2" },
    ]);
  });

  it.runIf(kind === "postgres")(
    "a param batch racing a concurrent insert of one of its keys writes nothing when the values differ",
    async () => {
      const id = await newRun();
      const knex = suite.server.database.knex;
      for (const [value, status] of [
        ["other", 400],
        ["1", 200],
      ] as const) {
        const key = `raced-${value}`;
        const trx = await knex.transaction();
        try {
          await trx("params").insert({ run_uuid: id, key, value });
          const request = api.post<{ message: string }>("runs/log-batch", {
            run_id: id,
            params: [
              { key: `new-${value}`, value: "1" },
              { key, value: "1" },
            ],
          });
          // The batch's INSERT waits for this transaction's row (ON CONFLICT on an uncommitted key).
          for (;;) {
            const waiting = await knex.raw(
              "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO params%'",
            );
            if (waiting.rows.length > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await trx.commit();
          const res = await request;
          expect(res.status, JSON.stringify(res.body)).toBe(status);
          const stored = await knex("params").where({ run_uuid: id, key: `new-${value}` });
          expect(stored).toHaveLength(status === 200 ? 1 : 0);
          if (status === 400) expect(res.body.message).toContain(`key='${key}' was already logged with value='other'`);
        } finally {
          if (!trx.isCompleted()) await trx.rollback();
        }
      }
    },
  );
});
