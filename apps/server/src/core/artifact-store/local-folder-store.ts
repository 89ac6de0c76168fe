import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { invalidParameter, TrackerError } from "../errors.js";
import type { ArtifactPath } from "./artifact-path.js";
import type { ArtifactEntry, ArtifactPage, ArtifactStat, ArtifactStore, WriteOptions } from "./artifact-store.js";
import { meteredUpload, refuseAnnouncedTooLarge } from "./metered-upload.js";
import {
  INNER_UPLOAD_FOLDER,
  makeUploadFolder,
  sweepUploadFolder,
  temporaryName,
  uploadFolderBeside,
} from "./upload-folder.js";

const inside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

export interface LocalFolderOptions {
  /** Folder of uploads in progress (default: beside the root, see upload-folder.ts). */
  uploadFolder?: string;
  /** Folders below the root no path may lead into (another store's upload folder). */
  hidden?: readonly string[];
}

/** `p` with its folder's symbolic links resolved, when that folder exists. */
async function realFolderOf(p: string): Promise<string> {
  const parent = await fs.realpath(path.dirname(p)).catch(() => path.dirname(p));
  return path.join(parent, path.basename(p));
}

/** A promise made once, made again after a failure. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
}

/**
 * Renames a complete upload into place. Across file systems (a mount point inside the store) a
 * rename cannot be done: the file is copied instead, which a reader may see half-written.
 */
async function moveInto(temp: string, final: string): Promise<void> {
  try {
    await fs.rename(temp, final);
  } catch (err) {
    if (errno(err) !== "EXDEV") throw err;
    await fs.copyFile(temp, final);
    await fs.rm(temp, { force: true });
  }
}

/**
 * Artifacts in a local folder. Paths are checked ArtifactPaths; on top of that every real path
 * (symbolic links resolved) must stay inside the folder and out of upload folders, or the request is
 * refused with 400.
 */
export class LocalFolderStore implements ArtifactStore {
  readonly uploadFolder: string;

  constructor(
    readonly root: string,
    private readonly options: LocalFolderOptions = {},
  ) {
    this.uploadFolder = path.resolve(options.uploadFolder ?? uploadFolderBeside(root));
  }

  private readonly rootReal = once(async () => {
    await fs.mkdir(this.root, { recursive: true });
    return fs.realpath(this.root);
  });

  /** Real paths no artifact path may lead into: every place an upload folder of this store may be, and `hidden`. */
  private readonly hiddenReal = once(async () => {
    const root = await this.rootReal();
    const candidates = [this.uploadFolder, ...(this.options.hidden ?? [])];
    return [path.join(root, INNER_UPLOAD_FOLDER), ...(await Promise.all(candidates.map(realFolderOf)))];
  });

  /** The real upload folder, made on first use (see upload-folder.ts). */
  readonly uploads = once(async () => makeUploadFolder(await this.rootReal(), this.uploadFolder));

  /** Removes the temporary files of uploads whose process is gone (at start-up); returns how many. */
  async sweepUploads(): Promise<number> {
    return sweepUploadFolder(await this.uploads());
  }

  private async refuseHidden(real: string, p: ArtifactPath): Promise<void> {
    if ((await this.hiddenReal()).some((hidden) => inside(real, hidden)))
      throw invalidParameter(`Invalid path '${p}': it leads into the server's upload folder`);
  }

  /**
   * The absolute path of `p`, after checking that the deepest part of it that exists resolves
   * (through symbolic links) to a place inside the root. When `p` exists, its real path.
   */
  private async resolve(p: ArtifactPath): Promise<{ full: string; exists: boolean }> {
    const root = await this.rootReal();
    const full = p ? path.join(root, ...p.split("/")) : root;
    let probe = full;
    for (;;) {
      try {
        const real = await fs.realpath(probe);
        if (!inside(real, root)) throw invalidParameter(`Invalid path '${p}': it leads out of the artifact store`);
        await this.refuseHidden(real, p);
        return probe === full ? { full: real, exists: true } : { full, exists: false };
      } catch (err) {
        if (err instanceof TrackerError) throw err;
        if (errno(err) !== "ENOENT" && errno(err) !== "ENOTDIR") throw err;
        if (probe === root) throw err;
        probe = path.dirname(probe);
      }
    }
  }

  async stat(p: ArtifactPath): Promise<ArtifactStat | undefined> {
    const { full, exists } = await this.resolve(p);
    if (!exists) return undefined;
    const info = await fs.stat(full);
    return { isDir: info.isDirectory(), size: info.size, modified: info.mtime };
  }

  async list(p: ArtifactPath): Promise<ArtifactEntry[] | undefined> {
    const { full, exists } = await this.resolve(p);
    if (!exists) return undefined;
    let names: string[];
    try {
      names = await fs.readdir(full);
    } catch (err) {
      if (errno(err) === "ENOTDIR") return undefined;
      throw err;
    }
    const root = await this.rootReal();
    const hidden = await this.hiddenReal();
    const entries: ArtifactEntry[] = [];
    for (const name of names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const real = await fs.realpath(path.join(full, name)).catch(() => undefined);
      // Dangling, a symbolic link leading out, or an upload folder: not shown.
      if (!real || !inside(real, root) || hidden.some((h) => inside(real, h))) continue;
      const info = await fs.stat(real).catch(() => undefined);
      if (!info) continue;
      entries.push(info.isDirectory() ? { name, isDir: true } : { name, isDir: false, size: info.size });
    }
    return entries;
  }

  /** A page of `list` (a folder is read whole for each page); the cursor is the offset of the page's first entry. */
  async listPage(p: ArtifactPath, limit: number, cursor?: string): Promise<ArtifactPage | undefined> {
    if (cursor !== undefined && !/^(0|[1-9]\d{0,14})$/.test(cursor)) throw invalidParameter("Invalid page token");
    const entries = await this.list(p);
    if (!entries) return undefined;
    const offset = Number(cursor ?? 0);
    const end = offset + limit;
    return { entries: entries.slice(offset, end), ...(end < entries.length ? { next: String(end) } : {}) };
  }

  async localFile(p: ArtifactPath): Promise<string | undefined> {
    const { full, exists } = await this.resolve(p);
    if (!exists) return undefined;
    return (await fs.stat(full)).isFile() ? full : undefined;
  }

  async read(p: ArtifactPath, range?: { start: number; end: number }): Promise<Readable> {
    const file = await this.localFile(p);
    if (!file) throw new TrackerError("RESOURCE_DOES_NOT_EXIST", `Artifact '${p}' not found`);
    return createReadStream(file, range);
  }

  async write(p: ArtifactPath, body: Readable, options: WriteOptions): Promise<{ size: number }> {
    if (!p) throw invalidParameter("An artifact path must name a file");
    refuseAnnouncedTooLarge(options);
    // The parent folder is checked (symbolic links resolved) before anything is created: when it
    // exists, that is one realpath; when not, its deepest existing ancestor is checked, the missing
    // folders are created below it, and the result is checked again.
    const slash = p.lastIndexOf("/");
    const parentPath = (slash === -1 ? "" : p.slice(0, slash)) as ArtifactPath;
    let parent = await this.resolve(parentPath);
    if (!parent.exists) {
      try {
        await fs.mkdir(parent.full, { recursive: true });
      } catch (err) {
        if (errno(err) === "EEXIST" || errno(err) === "ENOTDIR" || errno(err) === "ENOENT")
          throw await this.unmakeableFolder(p, parent.full, err);
        throw err;
      }
      parent = await this.resolve(parentPath);
    }
    const realDir = parent.full;
    const final = path.join(realDir, path.posix.basename(p));
    // An existing target: a symbolic link leading out is refused (as everywhere), a directory too.
    const existing = await fs.realpath(final).catch((err: unknown) => {
      if (errno(err) === "ENOENT" || errno(err) === "ENOTDIR") return undefined;
      throw err;
    });
    if (existing !== undefined && !inside(existing, await this.rootReal()))
      throw invalidParameter(`Invalid path '${p}': it leads out of the artifact store`);
    // The temporary file exists before a byte is read, so that every way out below removes it.
    const temp = path.join(await this.uploads(), temporaryName());
    const handle = await fs.open(temp, "wx");
    let size: number;
    try {
      ({ size } = await meteredUpload(body, options, (checked) => pipeline(checked, handle.createWriteStream())));
      await moveInto(temp, final).catch((err: unknown) => {
        if (errno(err) === "EISDIR" || errno(err) === "ENOTEMPTY" || errno(err) === "EEXIST")
          throw invalidParameter(`Cannot write '${p}': it is a directory`);
        throw err;
      });
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fs.rm(temp, { force: true }).catch(() => undefined);
      // The parent is a file: the temporary file could not be created in it.
      if (errno(err) === "ENOTDIR") throw invalidParameter(`Cannot write '${p}': a parent of it is a file`);
      throw err;
    }
    return { size };
  }

  /**
   * Why the folders of `full` (below the real root) cannot be made: a name on the way is a file, or a
   * symbolic link to nothing (writing through it would make its target, wherever that is).
   */
  private async unmakeableFolder(p: ArtifactPath, full: string, cause: unknown): Promise<unknown> {
    const root = await this.rootReal();
    let at = root;
    for (const name of path.relative(root, full).split(path.sep)) {
      at = path.join(at, name);
      const link = await fs.lstat(at).catch(() => undefined);
      if (!link) break;
      if (link.isSymbolicLink() && !(await fs.stat(at).catch(() => undefined)))
        return invalidParameter(`Cannot write '${p}': a folder on its path is a symbolic link that leads nowhere`);
      if (!link.isSymbolicLink() && !link.isDirectory())
        return invalidParameter(`Cannot write '${p}': a parent of it is a file`);
    }
    return errno(cause) === "ENOENT" ? cause : invalidParameter(`Cannot write '${p}': a parent of it is a file`);
  }

  async delete(p: ArtifactPath): Promise<void> {
    if (!p) throw invalidParameter("Refusing to delete the whole artifact store");
    const { full, exists } = await this.resolve(p).catch((err: unknown) => {
      if (errno(err) === "ENOENT" || errno(err) === "ENOTDIR") return { full: "", exists: false };
      throw err;
    });
    if (!exists) return;
    await fs.rm(full, { recursive: true, force: true });
  }
}
