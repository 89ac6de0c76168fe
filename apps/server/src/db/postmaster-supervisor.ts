import type { Logger } from "../logging/logger.js";

/** One running postmaster, as the supervisor sees it. */
export interface Postmaster {
  pid: number;
  /** Resolves when the process has exited, whoever stopped it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Fast shutdown; resolves once it has exited. */
  stop(): Promise<void>;
}

export interface SupervisionOptions {
  /**
   * Wait before each restart try; their number bounds the tries (none: no restart). The count
   * starts again once a postmaster has stayed up for `stableMs`.
   */
  restartDelaysMs?: readonly number[];
  /** How long a postmaster must stay up for its crash to count as a new outage (default 30 s). */
  stableMs?: number;
  /**
   * Called once when every try failed: PostgreSQL cannot come back by itself. `tracker server`
   * exits non-zero then, so that its own supervisor (systemd, an orchestrator) restarts it.
   */
  onGiveUp?: (reason: Error) => void;
}

/**
 * Restarts after 0.25, 0.5, 1, 2, 4, 8 and 8 s: about 24 s of tries. A kill -9'd postmaster's
 * backends release its shared memory within moments (a new postmaster refuses to start while they
 * hold it), and a fault that outlasts these tries (a full disk, a broken configuration, a data dir
 * taken away) is the operator's: the process exits so that its supervisor shows it.
 */
export const DEFAULT_RESTART_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000, 8_000];

export interface SupervisedPostmaster {
  /** The current postmaster's pid (the last one while it is down). */
  readonly pid: number;
  /** Whether a postmaster is running now (false while it restarts, and after giving up). */
  readonly up: boolean;
  /** Postmasters started after the first. */
  readonly restarts: number;
  /** Stops supervising and stops the postmaster. */
  stop(): Promise<void>;
}

const exitText = ({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }) =>
  signal ?? `exit code ${code}`;

/**
 * Keeps a postmaster running: when it exits without `stop()`, `launch` starts a new one after the
 * next delay of `restartDelaysMs`, with a log line per exit, per try and per restart.
 */
export function supervisePostmaster(
  first: Postmaster,
  launch: () => Promise<Postmaster>,
  options: SupervisionOptions & { logger?: Logger } = {},
): SupervisedPostmaster {
  const { restartDelaysMs = DEFAULT_RESTART_DELAYS_MS, stableMs = 30_000, onGiveUp, logger } = options;
  let current: Postmaster = first;
  let up = true;
  let restarts = 0;
  let stopping = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const watch = async (): Promise<void> => {
    let tries = 0;
    for (;;) {
      const startedAt = Date.now();
      const status = await current.exited;
      if (stopping) return;
      up = false;
      if (Date.now() - startedAt >= stableMs) tries = 0;
      logger?.error(
        { pid: current.pid, exit: exitText(status) },
        "embedded PostgreSQL exited unexpectedly: answering 503 while it restarts",
      );
      for (;;) {
        const delay = restartDelaysMs[tries];
        if (delay === undefined) {
          const reason = new Error(
            `embedded PostgreSQL did not come back after ${tries} ${tries === 1 ? "try" : "tries"}`,
          );
          logger?.fatal({ tries }, `${reason.message}: giving up`);
          onGiveUp?.(reason);
          return;
        }
        tries++;
        logger?.warn({ attempt: tries, of: restartDelaysMs.length, inMs: delay }, "embedded PostgreSQL: restarting");
        await pause(delay);
        if (stopping) return;
        try {
          const next = await launch();
          if (stopping) {
            await next.stop();
            return;
          }
          current = next;
          up = true;
          restarts++;
          logger?.warn({ pid: next.pid, attempt: tries }, "embedded PostgreSQL restarted");
          break;
        } catch (err) {
          logger?.error(
            { attempt: tries, cause: (err instanceof Error ? err.message : String(err)).split("\n")[0] },
            "embedded PostgreSQL: restart failed",
          );
        }
      }
    }
  };
  const watching = watch();

  let stopped: Promise<void> | undefined;
  return {
    get pid() {
      return current.pid;
    },
    get up() {
      return up;
    },
    get restarts() {
      return restarts;
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake?.();
        await current.stop();
        await watching;
        up = false;
      })();
      return stopped;
    },
  };
}
