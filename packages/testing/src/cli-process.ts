import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPostgresDatabase, type ServerDatabase } from "./databases.js";
import { freePort } from "./ports.js";
import { processTreeCpuMs } from "./proc.js";
import { SERVER_DIR } from "./server.js";

/** The built CLI of @tracker/server, as users run it (`pnpm build` makes it; turbo builds before tests). */
export const CLI = path.join(SERVER_DIR, "dist", "cli.js");

function assertBuilt(): void {
  if (!fs.existsSync(CLI))
    throw new Error(`${CLI} is missing: run \`pnpm --filter @tracker/server build\` first (pnpm test does)`);
}

/** Whether a process (of any user) is still running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process's command line (Linux: /proc), arguments separated by spaces; "" when unknown. */
export function commandLineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI process: DATABASE_URL cleared, and a folder given as backend store
 * served by PGlite (the "pglite" test database), unless `env` says otherwise; the tests of the
 * embedded PostgreSQL set TRACKER_EMBEDDED_DATABASE themselves.
 */
const cliEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: "",
  TRACKER_EMBEDDED_DATABASE: "pglite",
  ...env,
});

/** Runs the CLI to completion (for --help, db migrate, bad flags), in cliEnv(env). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CliRun> {
  assertBuilt();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr; the last megabyte). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL if still running (cleanup only). */
  kill(): void;
}

export interface ServerProcessOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * When the server counts as started: `healthy` once `GET /health` answers 200 (the default),
   * `listening` once it answers at all (a server whose database is down answers 503).
   */
  ready?: "healthy" | "listening";
  /**
   * CPU time (ms) the server's processes may use before it counts as failing to start: a bound
   * that holds on a loaded machine, where wall-clock time does not (a cold start takes 5-8 s of
   * CPU, which at a load of 25 on 2 cores is minutes). Default 60 s of CPU.
   */
  cpuBudgetMs?: number;
  /** A wall-clock bound too (default none: the test's own timeout bounds the wait). */
  timeoutMs?: number;
  /** Arguments for node itself, before the CLI (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Another build of the CLI to run (the benchmark compares builds); the workspace's by default. */
  cli?: string;
}

/** Output kept per server process: enough for every line of the longest test (an outage under load, ~0.7 MB). */
const OUTPUT_LIMIT = 8 << 20;

/**
 * Starts `tracker server --host 127.0.0.1 --port <free> ...args` as a separate process (the
 * built CLI), in cliEnv() with LOG_LEVEL=warn and one worker unless `env` says otherwise.
 */
export async function startServerProcess(args: string[], options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const { env = {}, ready = "healthy", cpuBudgetMs = 60_000, timeoutMs, nodeArgs = [], cli = CLI } = options;
  if (cli === CLI) assertBuilt();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, "server", "--host", "127.0.0.1", "--port", String(port), ...args],
    {
      env: cliEnv({ LOG_LEVEL: "warn", TRACKER_WORKERS: "1", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let buffered = "";
  // The last OUTPUT_LIMIT characters, cut at a line start (a log line is whole or left out). The
  // buffer is cut only when it reaches twice the limit, so a chatty server costs one copy per
  // OUTPUT_LIMIT characters, not one per chunk.
  const lastLines = (text: string) =>
    text.length > OUTPUT_LIMIT ? text.slice(text.indexOf("\n", text.length - OUTPUT_LIMIT) + 1) : text;
  const collect = (chunk: Buffer) => {
    buffered += chunk.toString();
    if (buffered.length > 2 * OUTPUT_LIMIT) buffered = lastLines(buffered);
  };
  const output = () => (buffered = lastLines(buffered));
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  let polls = 0;
  let cpuMs = 0;
  // Waits for the server's own readiness (its health answer), however long a loaded machine makes
  // that; it fails when the server exits, or has used its CPU budget without becoming ready.
  for (;;) {
    if (done) throw new Error(`the server exited before it was ready:\n${output()}`);
    try {
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      if (ready === "listening" || response.status === 200) break;
    } catch {
      // not listening yet
    }
    // The process tree's CPU, read about once a second (a scan of /proc is not free either).
    if (++polls % 20 === 0) cpuMs = processTreeCpuMs(child.pid!);
    if (cpuMs > cpuBudgetMs || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(
        `the server was not ${ready} after ${cpuMs} ms of CPU (budget ${cpuBudgetMs})${Date.now() > deadline ? ` and ${timeoutMs} ms` : ""}:\n${output()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    child,
    output,
    exited,
    alive: () => !done,
    async stop(graceMs = 15_000) {
      if (!done) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return (await exited).code;
    },
    kill: () => {
      if (!done) child.kill("SIGKILL");
    },
  };
}

/**
 * A backend store for a server process: a fresh PostgreSQL database, or a temp folder for the
 * embedded database; `env` selects the engine (pass it to startServerProcess / runCli).
 */
export async function backendStore(
  kind: ServerDatabase,
): Promise<{ uri: string; env: NodeJS.ProcessEnv; dispose(): Promise<void> }> {
  if (kind === "postgres") {
    const db = await createPostgresDatabase();
    return { uri: db.url, env: {}, dispose: db.drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-cli-"));
  // As root, the embedded PostgreSQL runs as another user, who must be able to enter the folder.
  fs.chmodSync(dir, 0o755);
  const engine = kind === "embedded-postgres" ? "postgres" : "pglite";
  return {
    uri: dir,
    env: { TRACKER_EMBEDDED_DATABASE: engine },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
