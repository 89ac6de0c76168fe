import { createReadStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import * as artifacts from "../../core/artifacts.js";
import type { HandlerTable } from "../operation-handler.js";
import { optionalString, requiredString, runId } from "../input.js";

/** Artifact operations: list (every revision) and revision A's download. */

const CONTENT_TYPES: Record<string, string> = {
  ".txt": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".json": "application/json",
  ".yaml": "application/x-yaml",
  ".yml": "application/x-yaml",
  ".html": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "text/plain; charset=utf-8",
  ".pdf": "application/pdf",
};

export const artifactHandlers: HandlerTable = {
  async listArtifacts({ input, services }) {
    const { rootUri, page } = await artifacts.listArtifacts(services, runId(input), optionalString(input, "path"), optionalString(input, "page_token"));
    const files = page.items.map((f) => (f.isDir ? { path: f.path, is_dir: true } : { path: f.path, is_dir: false, file_size: f.fileSize }));
    return page.nextPageToken ? { root_uri: rootUri, files, next_page_token: page.nextPageToken } : { root_uri: rootUri, files };
  },

  async getArtifact({ input, services, res }) {
    const { file, size } = await artifacts.artifactFile(services, runId(input), requiredString(input, "path"));
    // HTML and SVG are served as text so a browser never runs their scripts from this origin.
    res.status(200);
    res.setHeader("Content-Type", CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream");
    res.setHeader("Content-Length", String(size));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Disposition", `attachment; filename="${path.basename(file).replace(/["\\\r\n]/g, "_")}"`);
    await pipeline(createReadStream(file), res);
    return undefined;
  },
};
