import { beforeAll, describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

/**
 * Rules that must hold under concurrency live in the database (design.md): no lost or duplicated
 * metric rows under parallel log-batch calls, param immutability, unique names.
 */

/**
 * Parallel log-batch load per database. PGlite has one connection, so every request queues for it
 * and its run time grows with the load alone (about 30 s for the PostgreSQL load on a busy 2-core
 * machine, past the test timeout when other suites run beside it); a smaller load proves the same
 * (no row lost or doubled through the queue). PostgreSQL, with its pool of connections, gets the
 * full load, where the races really happen.
 */
const LOAD = {
  postgres: { CLIENTS: 20, REQUESTS_PER_CLIENT: 50 },
  pglite: { CLIENTS: 10, REQUESTS_PER_CLIENT: 20 },
} as const;
const BATCH_SIZE = 10;
const RACERS = 10;
const ROUNDS = 3;

describe.each(testDatabases())("concurrency (%s)", (kind) => {
  const suite = useTestServer(kind);
  const { CLIENTS, REQUESTS_PER_CLIENT } = LOAD[kind];
  const { api } = suite;
  let experimentId: string;
  beforeAll(async () => {
    experimentId = (await api.post<{ experiment_id: string }>("experiments/create", { name: "concurrency" })).body
      .experiment_id;
  });

  const newRun = async () =>
    (await api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId })).body.run
      .info.run_id;
  const count = async (sql: string, bindings: unknown[]) =>
    Number((await suite.server.database.knex.raw(sql, bindings as never)).rows[0].n);

  it(`${CLIENTS} clients x ${REQUESTS_PER_CLIENT} log-batch requests to one run store exactly ${CLIENTS * REQUESTS_PER_CLIENT * BATCH_SIZE} metric rows`, async () => {
    const runId = await newRun();
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let r = 0; r < REQUESTS_PER_CLIENT; r++) {
          const res = await api.post("runs/log-batch", {
            run_id: runId,
            metrics: Array.from({ length: BATCH_SIZE }, (_, i) => ({
              key: `client_${client}`,
              value: r * BATCH_SIZE + i,
              timestamp: 1_700_000_000_000 + r * BATCH_SIZE + i,
              step: r * BATCH_SIZE + i,
            })),
            // Every batch also sets the same tag (last writer wins) and a param of its own.
            params: [{ key: `p_${client}_${r}`, value: String(r) }],
            tags: [{ key: "progress", value: `${client}/${r}` }],
          });
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(CLIENTS * REQUESTS_PER_CLIENT);
    expect(await count("SELECT count(*)::int AS n FROM metrics WHERE run_uuid = ?", [runId])).toBe(
      CLIENTS * REQUESTS_PER_CLIENT * BATCH_SIZE,
    );
    expect(await count("SELECT count(DISTINCT (key, step))::int AS n FROM metrics WHERE run_uuid = ?", [runId])).toBe(
      CLIENTS * REQUESTS_PER_CLIENT * BATCH_SIZE,
    );
    expect(await count("SELECT count(*)::int AS n FROM params WHERE run_uuid = ?", [runId])).toBe(
      CLIENTS * REQUESTS_PER_CLIENT,
    );
    expect(await count("SELECT count(*)::int AS n FROM tags WHERE run_uuid = ? AND key = 'progress'", [runId])).toBe(1);
    // The latest value per key reflects every batch: the last step of each client.
    const run = await api.get<{ run: { data: { metrics: Array<{ key: string; value: number; step: number }> } } }>(
      "runs/get",
      { run_id: runId },
    );
    const last = REQUESTS_PER_CLIENT * BATCH_SIZE - 1;
    expect(run.body.run.data.metrics).toHaveLength(CLIENTS);
    for (const m of run.body.run.data.metrics) expect(m).toMatchObject({ value: last, step: last });
    const history = await api.get<{ metrics: unknown[] }>("metrics/get-history", {
      run_id: runId,
      metric_key: "client_7",
    });
    expect(history.status, JSON.stringify(history.body).slice(0, 300)).toBe(200);
    expect(history.body.metrics).toHaveLength(REQUESTS_PER_CLIENT * BATCH_SIZE);
  });

  it(`${RACERS} concurrent log-parameter calls with one key and different values: exactly one wins`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const runId = await newRun();
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          api.post<{ error_code?: string }>("runs/log-parameter", { run_id: runId, key: "lr", value: `value-${i}` }),
        ),
      );
      const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
      expect(winners, `round ${round}: ${JSON.stringify(answers.map((a) => a.status))}`).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(400);
        expect(a.body.error_code).toBe("INVALID_PARAMETER_VALUE");
      }
      const params = await suite.server.database.knex("params").where({ run_uuid: runId, key: "lr" });
      expect(params).toEqual([expect.objectContaining({ value: `value-${winners[0]}` })]);
    }
  });

  it(`${RACERS} concurrent experiment creates (and registered-model creates) with one name: exactly one wins`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: RACERS }, () => api.post<{ error_code?: string }>("experiments/create", { name })),
      );
      expect(
        answers.filter((a) => a.status === 200),
        `round ${round}: ${JSON.stringify(answers.map((a) => a.status))}`,
      ).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(400);
        expect(a.body.error_code).toBe("RESOURCE_ALREADY_EXISTS");
      }
      expect(await count("SELECT count(*)::int AS n FROM experiments WHERE name = ?", [name])).toBe(1);

      const models = await Promise.all(
        Array.from({ length: RACERS }, () =>
          call<{ error_code?: string }>(suite.url, "POST", "/api/2.0/preview/tracker/registered-models/create", {
            name,
          }),
        ),
      );
      expect(models.filter((a) => a.status === 200)).toHaveLength(1);
      for (const a of models.filter((x) => x.status !== 200)) expect(a.body.error_code).toBe("RESOURCE_ALREADY_EXISTS");
      expect(await count("SELECT count(*)::int AS n FROM registered_models WHERE name = ?", [name])).toBe(1);
    }
  });
});
