import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";
import mime from "mime-types";
import { pipeline } from "node:stream/promises";
import { notFound } from "../core/errors.js";
import type { ArtifactFile } from "../core/artifacts.js";

/**
 * Sends an artifact file as a download: streamed from disk with Content-Length, ETag,
 * Last-Modified, Range (206) and conditional requests (304) by `send` (Express's res.sendFile),
 * the name in Content-Disposition (UTF-8 names in `filename*`, by `content-disposition`), the type
 * from the extension (`mime-types`), and anything a browser could run sent as text/plain.
 */

/** Extensions MLflow serves as text (its UI previews them). */
const TEXT_EXTENSIONS = new Set([
  "txt",
  "log",
  "err",
  "cfg",
  "conf",
  "cnf",
  "cf",
  "ini",
  "properties",
  "prop",
  "hocon",
  "toml",
  "yaml",
  "yml",
  "xml",
  "json",
  "js",
  "mjs",
  "py",
  "py3",
  "csv",
  "tsv",
  "md",
  "rst",
]);

/** Types a browser would render or run from this origin: HTML, SVG, scripts, XML with stylesheets. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript|application\/xml|text\/xml|application\/xslt\+xml)$/;

const TEXT_PLAIN = "text/plain; charset=utf-8";

export function contentTypeFor(name: string): string {
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if (TEXT_EXTENSIONS.has(extension)) return TEXT_PLAIN;
  const type = extension ? mime.lookup(extension) : false;
  if (!type) return "application/octet-stream";
  if (ACTIVE_TYPES.test(type)) return TEXT_PLAIN;
  return type.startsWith("text/") ? `${type}; charset=utf-8` : type;
}

export async function sendArtifact(req: Request, res: Response, file: ArtifactFile): Promise<void> {
  res.setHeader("Content-Type", contentTypeFor(file.name));
  res.setHeader("Content-Disposition", contentDisposition(file.name));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "no-cache");
  const local = await file.store.localFile?.(file.path);
  if (local) {
    await new Promise<void>((resolve, reject) => {
      res.sendFile(
        local,
        { dotfiles: "allow", acceptRanges: true, etag: true, lastModified: true, cacheControl: false },
        (err?: Error & { code?: string; status?: number }) => {
          if (!err || err.code === "ECONNABORTED" || res.headersSent) resolve();
          else if (err.status === 416 || err.status === 412) {
            // A range outside the file, a failed If-Match: the status alone (Content-Range set by send).
            res.removeHeader("Content-Disposition");
            res.status(err.status).end();
            resolve();
          } else reject(err.status === 404 ? notFound(`Artifact '${file.name}' not found`) : err);
        },
      );
    });
    return;
  }
  const stat = await file.store.stat(file.path);
  if (!stat || stat.isDir) throw notFound(`Artifact '${file.name}' not found`);
  res.setHeader("Content-Length", String(stat.size));
  res.setHeader("Last-Modified", stat.modified.toUTCString());
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(await file.store.read(file.path), res);
}
