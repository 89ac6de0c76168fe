import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { CLI, freePort } from "../testing/cli-process.js";

/**
 * The real `tracker server` as a separate process (the built CLI, dist/cli.js), for tests that
 * must watch the process itself: signals, exit codes, survival of database faults.
 */

export const CLI_PATH = CLI;
export { freePort };

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGKILL if still running (cleanup only). */
  kill(): void;
}

/** Starts `node dist/cli.js server --port <free> ...args` and waits until it listens. */
export async function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<ServerProcess> {
  if (!fs.existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run \`pnpm --filter @tracker/server build\` first (pnpm test does)`);
  }
  const port = await freePort();
  const child = spawn(process.execPath, [CLI_PATH, "server", "--host", "127.0.0.1", "--port", String(port), ...args], {
    env: { ...process.env, LOG_LEVEL: "info", TRACKER_WORKERS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  const deadline = Date.now() + timeoutMs;
  while (!/tracker server listening/.test(output)) {
    if (done) throw new Error(`the server exited before listening:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not listen within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    exited,
    alive: () => !done,
    kill: () => {
      if (!done) child.kill("SIGKILL");
    },
  };
}

/** Resolves true when a TCP connection to the port is refused, false when it is accepted. */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}
