import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { processAlive as alive } from "@tracker/testing";
import {
  EmbeddedPostgresUnavailable,
  findPostgresBinaries,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "./embedded-postgres.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-embedded-pg-"));
// mkdtemp makes a folder only its owner may enter; as root, PostgreSQL runs as another user.
fs.chmodSync(root, 0o755);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const running: EmbeddedPostgres[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(dir: string): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres(dir);
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
    // The first server is never stopped by its owner, as after a SIGKILL of tracker.
    const leftover = await startEmbeddedPostgres(dir);
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
      startEmbeddedPostgres(path.join(root, "nobin", "postgres"), undefined, missing),
    ).rejects.toBeInstanceOf(EmbeddedPostgresUnavailable);
  });
});
