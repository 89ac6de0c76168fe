/** Running git, for `<git-ref>:<path>` inputs and `spec-diff <git-ref>`. */
import { promisify } from "node:util";

/**
 * git's standard output. node:child_process is loaded on the first call: a comparison of two
 * files never needs it, and loading it (with the network modules it pulls in) costs start-up time.
 */
export async function git(args: string[], cwd: string): Promise<string> {
  const { execFile } = await import("node:child_process");
  const { stdout } = await promisify(execFile)("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
