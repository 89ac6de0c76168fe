import cluster from "node:cluster";
import type { Logger } from "../logging/logger.js";
import { startupOf } from "../runtime/cluster-startup.js";

export interface PrimaryOptions {
  /** Environment added to every worker's. */
  workerEnv?: NodeJS.ProcessEnv;
  /** Runs once every worker has exited after a stop signal (stops an embedded database). */
  afterWorkers?: () => Promise<void>;
}

/**
 * Runs `workers` server processes on one database with node:cluster (the server is stateless).
 * The primary forwards SIGTERM/SIGINT, waits for every worker to finish its in-flight requests,
 * and exits 0; a worker that dies unexpectedly is replaced.
 */
export function runPrimary(workers: number, logger: Logger, options: PrimaryOptions = {}): void {
  let stopping = false;
  let announced = false;
  cluster.on("message", (_worker, message: unknown) => {
    const startup = startupOf(message);
    if (startup === undefined || announced) return;
    announced = true;
    logger.info(startup, "tracker server listening");
  });
  const fork = () => cluster.fork(options.workerEnv ?? {});
  for (let i = 0; i < workers; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        (options.afterWorkers ?? (async () => undefined))().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      }
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, "worker exited; starting a new one");
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping workers");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

export const isPrimary = (): boolean => cluster.isPrimary;
