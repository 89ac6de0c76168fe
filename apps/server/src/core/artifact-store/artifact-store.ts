import type { Readable } from "node:stream";
import type { ArtifactPath } from "./artifact-path.js";

/**
 * Where artifacts live: a local folder (LocalFolderStore) or S3-compatible object storage (S3Store). Every path
 * is an ArtifactPath, checked by checkArtifactPath; a store must also keep symbolic links (or their
 * equivalents) from leading out of its root.
 */

export interface ArtifactStat {
  isDir: boolean;
  size: number;
  modified: Date;
  /** The store's entity tag of a file, when it has one (S3). */
  etag?: string;
}

export interface ArtifactEntry {
  name: string;
  isDir: boolean;
  /** For files. */
  size?: number;
}

/** One page of a directory's entries. */
export interface ArtifactPage {
  entries: ArtifactEntry[];
  /** Where the next page starts (the store's own cursor, opaque to callers), when more entries follow. */
  next?: string;
}

export interface WriteOptions {
  /** The body's announced length (Content-Length): a body of any other length is refused. */
  expectedLength?: number;
  /** Largest accepted body: reading stops and REQUEST_TOO_LARGE is thrown beyond it. */
  maxBytes: number;
  /** Expected digests (raw bytes), verified before the file becomes visible. */
  md5?: Buffer;
  sha256?: Buffer;
}

export interface ArtifactStore {
  /** Undefined when nothing exists at the path. */
  stat(path: ArtifactPath): Promise<ArtifactStat | undefined>;
  /** One level of a directory, sorted by name; undefined when the path is not a directory. */
  list(path: ArtifactPath): Promise<ArtifactEntry[] | undefined>;
  /**
   * At most `limit` entries of one level of a directory, from `cursor` (the `next` of an earlier page) on, each
   * page sorted by name; undefined when the path is not a directory. Each page costs the store about one
   * page's work, however far into the directory it lies. INVALID_PARAMETER_VALUE for a cursor it did not make.
   */
  listPage(path: ArtifactPath, limit: number, cursor?: string): Promise<ArtifactPage | undefined>;
  /** The file's bytes, or those from `start` to `end` (inclusive). */
  read(path: ArtifactPath, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * A local file to send as it is (Range and conditional requests handled by the HTTP layer), when
   * the store keeps files on this machine; undefined when missing or not a file.
   */
  localFile?(path: ArtifactPath): Promise<string | undefined>;
  /** Stores the whole body or nothing: the file appears only when complete and verified. */
  write(path: ArtifactPath, body: Readable, options: WriteOptions): Promise<{ size: number }>;
  /** Deletes a file or a directory with everything below it; nothing to delete is fine. */
  delete(path: ArtifactPath): Promise<void>;
}
