import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { processAlive as alive } from "@tracker/testing";
import {
  EmbeddedPostgresUnavailable,
  findPostgresBinaries,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from "./embedded-postgres.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-embedded-pg-"));
// mkdtemp makes a folder only its owner may enter; as root, PostgreSQL runs as another user.
fs.chmodSync(root, 0o755);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const running: EmbeddedPostgres[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(dir: string, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres(dir, options);
  running.push(server);
  return server;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("embedded PostgreSQL", () => {
  it("creates a data dir, answers on a private unix socket and stops with no process left", async () => {
    const dir = path.join(root, "new", "postgres");
    const server = await start(dir);
    expect(fs.existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
    expect(server.url).toMatch(/^postgresql:\/\/postgres@localhost:5432\/postgres\?host=/);
    const [row] = await query<{ version: string; listen: string }>(
      server.url,
      "select version(), current_setting('listen_addresses') as listen",
    );
    expect(row!.version).toMatch(/^PostgreSQL 18\./);
    expect(row!.listen).toBe(""); // no TCP listener
    const socketDir = decodeURIComponent(server.url.split("host=")[1]!);
    expect(fs.statSync(socketDir).mode & 0o777).toBe(0o700);
    // No half-made data dir is left beside it.
    expect(fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith(".postgres-initdb-"))).toEqual([]);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
    expect(fs.existsSync(path.join(dir, "postmaster.pid"))).toBe(false);
  });

  it("keeps the data of an existing data dir across a restart", async () => {
    const dir = path.join(root, "restart", "postgres");
    const first = await start(dir);
    await query(first.url, "create table kept (v text); insert into kept values ('still here')");
    await first.stop();
    const second = await start(dir);
    expect(await query(second.url, "select v from kept")).toEqual([{ v: "still here" }]);
  });

  it("stops a server an earlier process left running on the data dir, then starts its own", async () => {
    const dir = path.join(root, "leftover", "postgres");
    // The first server is never stopped by its owner, as after a SIGKILL of tracker (and of its
    // watchdog); nor restarted when the next start stops it.
    const leftover = await startEmbeddedPostgres(dir, { supervision: { restartDelaysMs: [] } });
    await query(leftover.url, "create table kept (v int); insert into kept values (1)");
    const next = await start(dir);
    expect(next.pid).not.toBe(leftover.pid);
    expect(alive(leftover.pid)).toBe(false);
    expect(await query(next.url, "select v from kept")).toEqual([{ v: 1 }]);
    await leftover.stop(); // already gone: resolves at once
  });

  it("refuses a folder that holds something other than a data dir", async () => {
    const dir = path.join(root, "occupied", "postgres");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
    await expect(startEmbeddedPostgres(dir)).rejects.toThrow(/exists but is not a PostgreSQL data dir/);
    expect(fs.readFileSync(path.join(dir, "notes.txt"), "utf8")).toBe("mine");
  });

  it("says it is unavailable when the binaries cannot run", async () => {
    const binaries = await findPostgresBinaries();
    const missing = { ...binaries, postgres: path.join(root, "no-such-postgres"), source: "test" };
    await expect(
      startEmbeddedPostgres(path.join(root, "nobin", "postgres"), { binaries: missing }),
    ).rejects.toBeInstanceOf(EmbeddedPostgresUnavailable);
  });
});

/** Log lines as records (a pino logger writing into an array). */
function recordingLogger() {
  const records: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { logger, records, said: (msg: string) => records.filter((r) => r.msg === msg) };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("embedded PostgreSQL supervision", () => {
  it("restarts a postmaster killed with SIGKILL, with a log line, and serves the same data again", async () => {
    const dir = path.join(root, "supervised", "postgres");
    const { logger, said } = recordingLogger();
    const server = await start(dir, { logger });
    await query(server.url, "create table kept (v int); insert into kept values (7)");
    const first = server.pid;
    process.kill(first, "SIGKILL");
    await until(() => !alive(first), 5_000, "the postmaster is gone");
    await until(() => server.up && server.pid !== first, 20_000, "a new postmaster runs");
    expect(server.restarts).toBe(1);
    expect(await query(server.url, "select v from kept")).toEqual([{ v: 7 }]);
    expect(said("embedded PostgreSQL exited unexpectedly: answering 503 while it restarts")).toHaveLength(1);
    expect(said("embedded PostgreSQL exited unexpectedly: answering 503 while it restarts")[0]).toMatchObject({
      pid: first,
      exit: "SIGKILL",
    });
    expect(said("embedded PostgreSQL restarted")).toHaveLength(1);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
    // A clean stop is not a crash: no restart after it.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.restarts).toBe(1);
    expect(fs.existsSync(path.join(dir, "postmaster.pid"))).toBe(false);
  });

  it("gives up after the bounded tries when it cannot start again, and says so once", async () => {
    const dir = path.join(root, "broken", "postgres");
    const { logger, said } = recordingLogger();
    let gaveUp: Error | undefined;
    const server = await start(dir, {
      logger,
      supervision: {
        restartDelaysMs: [10, 20, 40],
        onGiveUp: (reason) => {
          gaveUp = reason;
        },
      },
    });
    // A setting PostgreSQL does not know: every start fails from now on.
    fs.appendFileSync(path.join(dir, "postgresql.auto.conf"), "\nno_such_setting = 1\n");
    process.kill(server.pid, "SIGKILL");
    await until(() => gaveUp !== undefined, 20_000, "gave up");
    expect(gaveUp?.message).toBe("embedded PostgreSQL did not come back after 3 tries");
    expect(server.up).toBe(false);
    expect(said("embedded PostgreSQL: restarting").map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(said("embedded PostgreSQL: restart failed")).toHaveLength(3);
    expect(said("embedded PostgreSQL did not come back after 3 tries: giving up")).toHaveLength(1);
  });
});
