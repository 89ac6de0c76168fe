import { spawn } from "node:child_process";
import os from "node:os";

/**
 * Stops the embedded PostgreSQL when tracker dies without stopping it (SIGKILL, the OOM killer).
 *
 * Node cannot ask the kernel for a parent-death signal (prctl PR_SET_PDEATHSIG needs a native
 * addon, and the kernel clears it when PostgreSQL's user differs from root's anyway), so a tiny
 * `sh` watchdog per postmaster does it: its stdin is a pipe whose writing end only this process
 * holds (libuv opens it close-on-exec, so no other child inherits it). When this process dies,
 * however it dies, the kernel closes that end and the watchdog's `read` ends: it asks the
 * postmaster for a fast shutdown (SIGINT), and after 30 s for an immediate one (SIGQUIT). No
 * polling and no process id of tracker to outlive its owner. `release()` (a clean stop, or the
 * postmaster exited) writes `release`, and the watchdog exits without a signal.
 *
 * The watchdog has its own process group, so a Ctrl-C in the terminal does not end it first.
 */

const SCRIPT = [
  'IFS= read -r word; [ "$word" = release ] && exit 0',
  'kill -INT "$1" 2>/dev/null || exit 0',
  "i=0",
  'while kill -0 "$1" 2>/dev/null; do',
  '  i=$((i + 1)); if [ "$i" -gt 30 ]; then kill -QUIT "$1" 2>/dev/null; exit 0; fi',
  "  sleep 1",
  "done",
].join("\n");

/** Its name in `ps`. */
export const WATCHDOG_NAME = "tracker-postgres-watchdog";

export interface PostmasterWatchdog {
  pid: number | undefined;
  /** The postmaster stopped (or is being stopped) by tracker: the watchdog exits quietly. */
  release(): void;
}

/** Starts a watchdog that stops the postmaster `pid` when this process dies. */
export function watchPostmaster(pid: number): PostmasterWatchdog {
  const child = spawn("/bin/sh", ["-c", SCRIPT, WATCHDOG_NAME, String(pid)], {
    cwd: os.tmpdir(),
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  child.once("error", () => undefined);
  const stdin = child.stdin!;
  stdin.on("error", () => undefined);
  // Neither the watchdog nor its pipe keeps this process's event loop alive.
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  let released = false;
  return {
    pid: child.pid,
    release() {
      if (released) return;
      released = true;
      stdin.end("release\n");
    },
  };
}
