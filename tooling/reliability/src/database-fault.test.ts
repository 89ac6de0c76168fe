import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory from "knex";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  leaksIn,
  sendRaw,
  startCluster,
  startServerProcess,
  type PgCluster,
  type ServerProcess,
} from "@tracker/testing";

/**
 * PostgreSQL dies under load and comes back. The real server process (dist/cli.js) answers 503
 * TEMPORARILY_UNAVAILABLE meanwhile and stays alive, serves again without a restart once the
 * database is back, and no log-batch is half written: each batch is wholly present or wholly
 * absent, and every batch that was answered 200 is present. PostgreSQL only (a cluster of its own
 * that the test can crash); skipped without TEST_DATABASE_URL.
 */

const BATCH = 20;
const CLIENTS = 8;

interface Outcome {
  batch: number;
  status: number | "no answer";
  phase: "before" | "down" | "after";
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)("database faults (PostgreSQL)", () => {
  let cluster: PgCluster | undefined;
  let server: ServerProcess | undefined;
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-pgfault-artifacts-"));
  afterAll(() => {
    server?.kill();
    cluster?.destroy();
    fs.rmSync(artifacts, { recursive: true, force: true });
  });

  it("answers 503 while PostgreSQL is down, recovers without a restart, never half-writes a batch", async () => {
    cluster = await startCluster();
    server = await startServerProcess(["--backend-store-uri", cluster.url, "--default-artifact-root", artifacts], {
      env: { LOG_LEVEL: "info" },
    });
    const url = server.url;
    const experimentId = (await call(url, "POST", "/api/2.0/tracker/experiments/create", { name: "faults" })).body
      .experiment_id;
    const runId = (
      (await call(url, "POST", "/api/2.0/tracker/runs/create", { experiment_id: experimentId })).body as {
        run: { info: { run_id: string } };
      }
    ).run.info.run_id;

    let phase: Outcome["phase"] = "before";
    let next = 0;
    let stop = false;
    const outcomes: Outcome[] = [];
    const badBodies: string[] = [];
    const client = async () => {
      while (!stop) {
        const batch = next++;
        const at = phase;
        const metrics = Array.from({ length: BATCH }, (_, i) => ({
          key: `b${batch}`,
          value: i,
          timestamp: 1_700_000_000_000 + i,
          step: i,
        }));
        try {
          const answer = await sendRaw(
            url,
            "POST",
            "/api/2.0/tracker/runs/log-batch",
            JSON.stringify({ run_id: runId, metrics }),
            { "content-type": "application/json" },
          );
          outcomes.push({ batch, status: answer.status, phase: at });
          if (answer.status !== 200) {
            let body: { error_code?: string; message?: string } = {};
            try {
              body = JSON.parse(answer.text) as typeof body;
            } catch {
              // reported below
            }
            const ok =
              answer.status === 503 &&
              body.error_code === "TEMPORARILY_UNAVAILABLE" &&
              typeof body.message === "string" &&
              leaksIn(body.message).length === 0;
            if (!ok) badBodies.push(`${answer.status} ${answer.text}`);
          }
        } catch {
          outcomes.push({ batch, status: "no answer", phase: at });
          await sleep(20);
        }
      }
    };
    const load = Array.from({ length: CLIENTS }, client);

    await sleep(1_500);
    phase = "down";
    cluster.crash();
    await sleep(2_000);
    const healthDown = await sendRaw(url, "GET", "/health");
    expect(healthDown.status).toBe(503);
    expect(JSON.parse(healthDown.text)).toMatchObject({ error_code: "TEMPORARILY_UNAVAILABLE" });
    expect(healthDown.headers["retry-after"]).toMatch(/^\d+$/);
    expect((await sendRaw(url, "GET", "/health/ready")).status).toBe(503);
    // Liveness does not depend on the database: an orchestrator keeps the process through the outage.
    expect((await sendRaw(url, "GET", "/health/live")).status).toBe(200);
    expect(server.alive(), `process alive while the database is down\n${server.output().slice(-2000)}`).toBe(true);

    cluster.start();
    // The pool reconnects by itself: no restart of the server.
    let healthy = false;
    for (let i = 0; i < 300 && !healthy; i++) {
      healthy = (await sendRaw(url, "GET", "/health")).status === 200;
      if (!healthy) await sleep(100);
    }
    expect(healthy, "serves again once PostgreSQL is back").toBe(true);
    phase = "after";
    await sleep(1_500);
    stop = true;
    await Promise.all(load);

    const count = (p: Outcome["phase"], s: Outcome["status"]) =>
      outcomes.filter((o) => o.phase === p && o.status === s).length;
    console.info(
      `database fault: ${outcomes.length} log-batch requests; before ${count("before", 200)} ok; ` +
        `down ${count("down", 200)} ok / ${count("down", 503)} x 503; after ${count("after", 200)} ok / ${count("after", 503)} x 503`,
    );
    expect(
      outcomes.filter((o) => o.status === "no answer"),
      "every request got an answer",
    ).toEqual([]);
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
    expect(badBodies).toEqual([]);
    expect(count("before", 200)).toBeGreaterThan(0);
    expect(count("down", 503)).toBeGreaterThan(0);
    expect(count("after", 200)).toBeGreaterThan(0);
    expect(server.alive()).toBe(true);

    // No half-written batch: per batch key, all BATCH metric rows and its latest_metrics row, or none.
    const db = knexFactory({ client: "pg", connection: cluster.url, pool: { min: 0, max: 1 } });
    try {
      const rows = (
        await db.raw<{ rows: Array<{ key: string; n: number; latest: number }> }>(
          `SELECT m.key, count(*)::int AS n, (SELECT count(*)::int FROM latest_metrics l WHERE l.run_uuid = m.run_uuid AND l.key = m.key) AS latest
           FROM metrics m WHERE m.run_uuid = ? GROUP BY m.run_uuid, m.key`,
          [runId],
        )
      ).rows;
      const stored = new Map(rows.map((r) => [r.key, r]));
      const partial = rows.filter((r) => r.n !== BATCH || r.latest !== 1);
      expect(partial, "batches written partly").toEqual([]);
      const lost = outcomes.filter((o) => o.status === 200 && !stored.has(`b${o.batch}`));
      expect(lost, "batches answered 200 but not stored").toEqual([]);
      const orphanLatest = await db.raw<{ rows: unknown[] }>(
        "SELECT key FROM latest_metrics l WHERE l.run_uuid = ? AND NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_uuid = l.run_uuid AND m.key = l.key)",
        [runId],
      );
      expect(orphanLatest.rows).toEqual([]);
    } finally {
      await db.destroy();
    }

    // And it still shuts down cleanly.
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // Every line went through the logger (JSON here: stdout is not a terminal), and the outage
    // is one warning and its end another, not a driver stack trace per failed connection.
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as { msg?: string };
      } catch {
        throw new Error(`a line outside the log: ${line}`);
      }
    });
    const said = (msg: string) => records.filter((r) => r.msg === msg).length;
    expect(said("database unreachable: answering 503 until it is back")).toBe(1);
    expect(said("database reachable again")).toBe(1);
    expect(server.output()).not.toMatch(/Acquire connection error/);
  });
});
