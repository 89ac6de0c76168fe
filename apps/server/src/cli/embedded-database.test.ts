import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import {
  processAlive as alive,
  childProcesses,
  commandLineOf,
  runCli,
  startServerProcess,
  type ServerProcess,
} from "@tracker/testing";
import { WATCHDOG_NAME } from "../db/postmaster-watchdog.js";
import { EXIT_DATABASE_LOST } from "./main.js";

/** `tracker server` on a folder with no database URL: the embedded default, as a user runs it. */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-embedded-cli-"));
// mkdtemp makes a folder only its owner may enter; as root, PostgreSQL runs as another user.
fs.chmodSync(root, 0o755);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const DEFAULT = { TRACKER_EMBEDDED_DATABASE: "", LOG_LEVEL: "info", TRACKER_LOG_FORMAT: "json" };

/** The postmaster of a data dir's embedded PostgreSQL, from its pid file. */
const postmasterPid = (dataDir: string): number | undefined => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
};

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

async function post(server: ServerProcess, operation: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/api/2.0/tracker/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

async function getExperiment(server: ServerProcess, name: string): Promise<number> {
  const response = await fetch(
    `${server.url}/api/2.0/tracker/experiments/get-by-name?experiment_name=${encodeURIComponent(name)}`,
  );
  return response.status;
}

const startupLine = (server: ServerProcess) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.includes('"startup":true'))
    .map((line) => JSON.parse(line) as { database: string; databaseKind: string; workers: number })[0];

describe("tracker server on the embedded default (PostgreSQL from the npm binaries)", () => {
  it("creates its database on first start, says so, keeps the data; its PostgreSQL stops when tracker is SIGKILLed", async () => {
    const dataDir = path.join(root, "lifecycle");
    const first = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
    let postmaster: number | undefined;
    try {
      expect(first.output()).toContain("embedded PostgreSQL: creating a new database");
      expect(startupLine(first)).toMatchObject({
        databaseKind: "postgres",
        database: expect.stringMatching(/^PostgreSQL 18 \(embedded, pid \d+\) in /),
      });
      await post(first, "experiments/create", { name: "before-the-crash" });
      postmaster = postmasterPid(dataDir);
    } finally {
      first.kill(); // SIGKILL: tracker cannot stop its PostgreSQL, its watchdog does
      await first.exited;
    }
    expect(postmaster).toBeGreaterThan(0);
    await until(() => !alive(postmaster!), 15_000, "the postmaster of a SIGKILLed tracker exits");
    expect(postmasterPid(dataDir)).toBeUndefined(); // a clean (fast) shutdown removes its pid file

    const second = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
    try {
      expect(second.output()).not.toContain("creating a new database");
      expect(second.output()).not.toContain("stopping the server an earlier tracker process left running");
      expect(await getExperiment(second, "before-the-crash")).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(postmasterPid(dataDir)).toBeUndefined(); // PostgreSQL removes its pid file when it has stopped
    expect(second.output()).not.toMatch(/"level":(50|60)/);
  });

  it.runIf(process.platform === "linux")(
    "stops a PostgreSQL left running (tracker and its watchdog SIGKILLed) at the next start",
    async () => {
      const dataDir = path.join(root, "leftover");
      const first = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
      try {
        await post(first, "experiments/create", { name: "before-the-crash" });
        const watchdogs = childProcesses(first.child.pid!).filter((pid) => commandLineOf(pid).includes(WATCHDOG_NAME));
        expect(watchdogs).toHaveLength(1);
        process.kill(watchdogs[0]!, "SIGKILL");
      } finally {
        first.kill();
        await first.exited;
      }
      const orphan = postmasterPid(dataDir);
      expect(orphan).toBeGreaterThan(0);
      expect(alive(orphan!)).toBe(true);

      const second = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
      try {
        expect(second.output()).toContain("stopping the server an earlier tracker process left running");
        expect(alive(orphan!)).toBe(false);
        expect(await getExperiment(second, "before-the-crash")).toBe(200);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    },
  );

  it("restarts a PostgreSQL killed with SIGKILL: 503 with Retry-After meanwhile, then served again", async () => {
    const dataDir = path.join(root, "postmaster-crash");
    const server = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
    try {
      await post(server, "experiments/create", { name: "before-the-crash" });
      const first = postmasterPid(dataDir)!;
      process.kill(first, "SIGKILL");
      const seen: Array<{ status: number; retryAfter: string | null }> = [];
      await until(
        async () => {
          const ready = await fetch(`${server.url}/health/ready`);
          seen.push({ status: ready.status, retryAfter: ready.headers.get("retry-after") });
          return ready.status === 200;
        },
        30_000,
        "ready again",
      );
      const down = seen.filter((answer) => answer.status !== 200);
      expect(down.length).toBeGreaterThan(0);
      expect(down.every((answer) => answer.status === 503 && /^\d+$/.test(answer.retryAfter ?? ""))).toBe(true);
      expect(postmasterPid(dataDir)).not.toBe(first);
      expect(await getExperiment(server, "before-the-crash")).toBe(200);
      await post(server, "experiments/create", { name: "after-the-crash" });
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
      const said = (msg: string) =>
        server
          .output()
          .split("\n")
          .filter((line) => line.includes(`"msg":"${msg}"`));
      expect(said("embedded PostgreSQL exited unexpectedly: answering 503 while it restarts")).toHaveLength(1);
      expect(said("embedded PostgreSQL restarted")).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  it("exits non-zero when its PostgreSQL cannot come back, so that a supervisor restarts tracker", async () => {
    const dataDir = path.join(root, "postmaster-lost");
    const server = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
    try {
      // A setting PostgreSQL does not know: every restart fails.
      fs.appendFileSync(path.join(dataDir, "postgres", "postgresql.auto.conf"), "\nno_such_setting = 1\n");
      process.kill(postmasterPid(dataDir)!, "SIGKILL");
      // The default tries take about 24 s.
      const exited = await Promise.race([server.exited, sleep(60_000).then(() => undefined)]);
      expect(exited, server.output().slice(-3000)).toEqual({ code: EXIT_DATABASE_LOST, signal: null });
      expect(server.output()).toContain("embedded PostgreSQL did not come back after 7 tries: giving up");
    } finally {
      server.kill();
    }
  }, 90_000);

  it("serves --workers 2 from one embedded PostgreSQL and stops it after the workers", async () => {
    const dataDir = path.join(root, "workers");
    const server = await startServerProcess(["--backend-store-uri", dataDir, "--workers", "2"], { env: DEFAULT });
    let pid: number | undefined;
    try {
      // The primary logs it for the first worker that listens: it may reach the output just after
      // that worker's first answer, and it comes once however many workers start.
      await until(() => startupLine(server) !== undefined, 15_000, "the start-up line");
      expect(startupLine(server)).toMatchObject({
        workers: 2,
        database: expect.stringMatching(/^PostgreSQL 18 \(embedded/),
      });
      pid = postmasterPid(dataDir);
      await Promise.all(Array.from({ length: 8 }, (_, i) => post(server, "experiments/create", { name: `w-${i}` })));
      for (let i = 0; i < 8; i++) expect(await getExperiment(server, `w-${i}`)).toBe(200);
      expect(
        server
          .output()
          .split("\n")
          .filter((line) => line.includes('"startup":true')),
      ).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid!)).toBe(false);
  });

  it("keeps serving an existing PGlite data dir with PGlite (no data hidden by the new default)", async () => {
    const dataDir = path.join(root, "was-pglite");
    const before = await startServerProcess(["--backend-store-uri", dataDir], {
      env: { ...DEFAULT, TRACKER_EMBEDDED_DATABASE: "pglite" },
    });
    try {
      await post(before, "experiments/create", { name: "made-on-pglite" });
    } finally {
      await before.stop();
    }
    const after = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
    try {
      expect(startupLine(after)).toMatchObject({ databaseKind: "pglite" });
      expect(await getExperiment(after, "made-on-pglite")).toBe(200);
      expect(fs.existsSync(path.join(dataDir, "postgres"))).toBe(false);
    } finally {
      await after.stop();
    }
  });

  // As root, PostgreSQL runs as an unprivileged user, who cannot enter a folder only root may enter.
  it.runIf(process.getuid?.() === 0)(
    "falls back to PGlite, and says why, where PostgreSQL's user cannot reach the data dir",
    async () => {
      const locked = path.join(root, "root-only");
      fs.mkdirSync(locked, { mode: 0o700 });
      const dataDir = path.join(locked, "data");
      const server = await startServerProcess(["--backend-store-uri", dataDir], { env: DEFAULT });
      try {
        expect(startupLine(server)).toMatchObject({
          databaseKind: "pglite",
          database: expect.stringContaining("PostgreSQL binaries unavailable"),
        });
        // Said once: the engine is chosen once per start.
        const fallback = server
          .output()
          .split("\n")
          .filter((line) => line.includes("embedded PostgreSQL cannot run here: using PGlite"));
        expect(fallback).toHaveLength(1);
        expect(fallback[0]).toMatch(/may not enter .*root-only/);
        await post(server, "experiments/create", { name: "on-the-fallback" });
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const forced = await runCli([
        "db",
        "migrate",
        "--backend-store-uri",
        path.join(locked, "forced"),
        "--embedded-database",
        "postgres",
      ]);
      expect(forced.code).toBe(2);
      expect(forced.stderr).toMatch(/may not enter .*root-only/);
    },
  );

  it("runs db migrate on the embedded PostgreSQL and stops it again", async () => {
    const dataDir = path.join(root, "migrate");
    const run = await runCli(["db", "migrate", "--backend-store-uri", dataDir, "--embedded-database", "postgres"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  it("refuses an unknown --embedded-database with a clear message", async () => {
    const run = await runCli([
      "server",
      "--backend-store-uri",
      path.join(root, "bad"),
      "--embedded-database",
      "sqlite",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('embedded database must be one of auto, postgres, pglite, got "sqlite"');
  });
});
