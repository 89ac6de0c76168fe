import { spawn } from "node:child_process";
import { childProcesses } from "@tracker/testing/proc";

/** A calibration scenario's server (calibration-server.mjs, calibration-db-server.mjs) in its own process. */
export interface CalibrationServer {
  url: string;
  pid: number;
  /** Its processes: the script's, and its node:cluster workers when it runs any. */
  pids(): number[];
  /** SIGTERM, then waits for the process to end. */
  stop(): Promise<void>;
}

/**
 * Starts `script` with node, `args` and `env` added to the bench's environment; resolves with the
 * URL it prints on stdout when listening.
 */
export async function startCalibrationServer(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CalibrationServer> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
      child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
      child.once("error", reject);
    });
    return {
      url,
      pid: child.pid!,
      pids: () => [child.pid!, ...childProcesses(child.pid!)],
      async stop() {
        child.kill("SIGTERM");
        await exited;
      },
    };
  } catch (err) {
    child.kill("SIGTERM");
    throw err;
  }
}
