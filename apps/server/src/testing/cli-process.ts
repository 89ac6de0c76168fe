import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPostgresDatabase, type TestDatabase } from "./test-server.js";

/** The built CLI, as users run it (`pnpm build` makes it; turbo builds before tests). */
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "cli.js");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help, db migrate, bad flags). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: "", ...env } });
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
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `tracker server` as a separate process and waits for /health. */
export async function startServerProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, "server", "--port", String(port), ...args], {
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

/** A backend store for a server process: a temp folder (PGlite) or a fresh PostgreSQL database. */
export async function backendStore(kind: TestDatabase): Promise<{ uri: string; dispose(): Promise<void> }> {
  if (kind === "postgres") {
    const db = await createPostgresDatabase();
    return { uri: db.url, dispose: db.drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-cli-"));
  return { uri: dir, dispose: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
