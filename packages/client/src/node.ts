/// <reference types="node" />
// @tracker-ml/client in Node: everything of the main entry, with a TrackerClient whose artifact
// methods also take file paths, Node streams and folders (uploadArtifacts, downloadArtifacts).
// package.json's exports map sends Node (the "node" condition) here and browsers to index.js.
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ArtifactFileSystem, OpenedSource } from "./artifacts.js";
import { TrackerClient as PortableTrackerClient } from "./client.js";

export * from "./index.js";

const SMALL_FILE_BYTES = 1024 * 1024;

/** File-system access for the artifact methods, with node:fs. */
export const nodeArtifactFileSystem: ArtifactFileSystem = {
  async open(source: unknown): Promise<OpenedSource | undefined> {
    if (typeof source === "string") {
      const stat = await fs.stat(source);
      if (!stat.isFile()) throw new TypeError(`${source} is not a file (use uploadArtifacts for a folder)`);
      // Small files go as one buffer (with Content-Length); larger ones are streamed from disk.
      if (stat.size <= SMALL_FILE_BYTES)
        return { body: new Uint8Array(await fs.readFile(source)), name: path.basename(source), size: stat.size };
      return {
        body: Readable.toWeb(createReadStream(source)) as ReadableStream<Uint8Array>,
        name: path.basename(source),
        size: stat.size,
      };
    }
    if (source instanceof Readable) return { body: Readable.toWeb(source) as ReadableStream<Uint8Array> };
    return undefined;
  },
  async walk(dir: string): Promise<string[]> {
    const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
      .sort();
  },
  join: (dir: string, relative: string) => path.join(dir, ...relative.split("/")),
  async write(file: string, body: ReadableStream<Uint8Array>): Promise<void> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await pipeline(
      Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>),
      createWriteStream(file),
    );
  },
};

/** TrackerClient with file paths, Node streams and folders for artifacts. */
export class TrackerClient extends PortableTrackerClient {
  override artifactFileSystem(): ArtifactFileSystem {
    return nodeArtifactFileSystem;
  }
}
