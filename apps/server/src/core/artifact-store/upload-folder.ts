import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where uploads are written before they are complete: a folder beside the artifact store's root
 * (`/srv/artifacts` -> `/srv/.artifacts.uploads`), so that no artifact path names a temporary file
 * and a listing never meets one. A complete upload is renamed into the store, which is atomic only
 * on one file system: when the folder beside the root is on another one (the root is a mount point)
 * or cannot be made, the upload folder is `.tracker-uploads` inside the root instead, and the store
 * refuses every path into it (see LocalFolderStore).
 *
 * Temporary files are named `<pid>-<uuid>`. At start-up each server process removes the files of
 * processes that are gone (a SIGKILL mid-upload) and its own pid's (a restarted container reuses
 * pids), and keeps those of live processes: the other workers of a `--workers N` server share the
 * folder.
 */

/** The upload folder inside the root, used when the one beside it cannot serve. */
export const INNER_UPLOAD_FOLDER = ".tracker-uploads";

/** The preferred upload folder of a store rooted at `root`: a hidden sibling of it. */
export const uploadFolderBeside = (root: string): string =>
  path.join(path.dirname(path.resolve(root)), `.${path.basename(path.resolve(root))}.uploads`);

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** True when a process with this pid exists (EPERM: it exists, under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === "EPERM";
  }
}

/** A name for a new temporary file of this process. */
export const temporaryName = (): string => `${process.pid}-${randomUUID()}`;

/** Removes the temporary files no live process is writing; returns how many it removed. */
export async function sweepUploadFolder(folder: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (err) {
    if (errno(err) === "ENOENT") return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const pid = /^(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && processAlive(Number(pid))) continue;
    await fs.rm(path.join(folder, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * Makes the upload folder of a store whose real root is `realRoot` and returns its real path: the
 * preferred one when it can be made on the root's file system, else INNER_UPLOAD_FOLDER in the root.
 */
export async function makeUploadFolder(realRoot: string, preferred: string): Promise<string> {
  try {
    await fs.mkdir(preferred, { recursive: true });
    const [folder, root] = await Promise.all([fs.stat(preferred), fs.stat(realRoot)]);
    if (folder.isDirectory() && folder.dev === root.dev) return await fs.realpath(preferred);
  } catch {
    // Not allowed, or a file in the way: the folder inside the root serves.
  }
  const inner = path.join(realRoot, INNER_UPLOAD_FOLDER);
  await fs.mkdir(inner, { recursive: true });
  return fs.realpath(inner);
}
