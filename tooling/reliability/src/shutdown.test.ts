import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory from "knex";
import { afterAll, describe, expect, inject, it } from "vitest";
import { connectDatabase } from "@tracker/server";
import {
  call,
  connectionRefused,
  holdRequest,
  idleKeepAlive,
  startServerProcess,
  testDatabases,
  type ServerProcess,
  type TestDatabase,
} from "@tracker/testing";

/**
 * SIGTERM on the real server process (dist/cli.js): it stops accepting connections at once, closes
 * idle keep-alive connections, finishes the requests in flight (their writes are committed),
 * closes the database and exits 0.
 */

const IN_FLIGHT = 5;
const METRICS_PER_BATCH = 1000;

interface Store {
  args: string[];
  count(sql: string): Promise<number>;
  cleanup(): Promise<void>;
}

async function prepareStore(kind: TestDatabase): Promise<Store> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-shutdown-"));
  if (kind === "pglite") {
    // Start from the migrated template, as the test servers do (a fresh PGlite dir takes seconds).
    fs.cpSync(inject("pgliteTemplate"), path.join(dir, "pgdata"), { recursive: true });
    return {
      args: ["--backend-store-uri", dir],
      async count(sql) {
        const db = connectDatabase({ pgliteDir: path.join(dir, "pgdata") });
        try {
          return Number((await db.knex.raw(sql)).rows[0].n);
        } finally {
          await db.close();
        }
      },
      cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `tracker_shutdown_${process.pid}_${Date.now()}`;
  const admin = knexFactory({ client: "pg", connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    args: ["--backend-store-uri", url.toString(), "--default-artifact-root", path.join(dir, "artifacts")],
    async count(sql) {
      const db = knexFactory({ client: "pg", connection: url.toString(), pool: { min: 0, max: 1 } });
      try {
        return Number((await db.raw(sql)).rows[0].n);
      } finally {
        await db.destroy();
      }
    },
    async cleanup() {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(testDatabases())("graceful shutdown on SIGTERM (%s)", (kind) => {
  let server: ServerProcess | undefined;
  let store: Store | undefined;
  afterAll(async () => {
    server?.kill();
    await store?.cleanup();
  });

  it("stops accepting, finishes the requests in flight, closes the pool and exits 0", async () => {
    store = await prepareStore(kind);
    server = await startServerProcess(store.args, { env: { LOG_LEVEL: "info" } });
    const api = (op: string, body: Record<string, unknown>) =>
      call(server!.url, "POST", `/api/2.0/tracker/${op}`, body);
    const experimentId = (await api("experiments/create", { name: "shutdown" })).body.experiment_id;
    const runId = (
      (await api("runs/create", { experiment_id: experimentId })).body as { run: { info: { run_id: string } } }
    ).run.info.run_id;

    // Requests certainly inside the server: their headers are read (100 Continue), the body is not.
    const held = await Promise.all(
      Array.from({ length: IN_FLIGHT }, (_, i) =>
        holdRequest(
          server!.port,
          "POST",
          "/api/2.0/tracker/runs/log-batch",
          JSON.stringify({
            run_id: runId,
            metrics: Array.from({ length: METRICS_PER_BATCH }, (_, step) => ({
              key: `inflight_${i}`,
              value: step / 7,
              timestamp: 1_700_000_000_000 + step,
              step,
            })),
          }),
        ),
      ),
    );
    // And an idle keep-alive connection, which must not hold the shutdown up.
    const idle = await idleKeepAlive(server.port);
    expect(idle.response.status).toBe(200);

    server.child.kill("SIGTERM");

    // New connections are refused while the held requests are still open.
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await connectionRefused(server.port);
      if (!refused) await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused, "new connections refused after SIGTERM").toBe(true);
    await within(idle.closed, 5_000, "the idle keep-alive connection is closed");
    expect(server.alive(), "the process waits for the requests in flight").toBe(true);

    const answers = await within(Promise.all(held.map((h) => h.finish())), 30_000, "in-flight requests answered");
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({});
    }

    const exit = await within(server.exited, 20_000, "the process exits");
    expect(exit, server.output().slice(-2000)).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/shutting down/);

    // Everything the in-flight requests wrote is committed and readable after the exit.
    const rows = await store.count(
      `SELECT count(*)::int AS n FROM metrics WHERE run_uuid = '${runId}' AND key LIKE 'inflight\\_%'`,
    );
    expect(rows).toBe(IN_FLIGHT * METRICS_PER_BATCH);
  });
});
