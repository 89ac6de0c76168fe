import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";
import mime from "mime-types";
import { Readable } from "node:stream";
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
  await sendFromStore(req, res, file);
}

/**
 * A file from a store that is not on this machine (S3): Content-Length, ETag and Last-Modified
 * from the lookup, conditional requests (304, 412) and one byte range (206, 416) as `send` answers
 * them for local files, and the bytes streamed from the store.
 */
async function sendFromStore(req: Request, res: Response, file: ArtifactFile): Promise<void> {
  const { stat } = file;
  res.setHeader("Accept-Ranges", "bytes");
  if (stat.etag) res.setHeader("ETag", stat.etag);
  res.setHeader("Last-Modified", stat.modified.toUTCString());
  const ifMatch = req.headers["if-match"];
  if (ifMatch && ifMatch !== "*" && !(stat.etag && ifMatch.split(/\s*,\s*/).includes(stat.etag))) {
    res.removeHeader("Content-Disposition");
    res.status(412).end();
    return;
  }
  if (req.fresh) {
    res.removeHeader("Content-Disposition");
    res.status(304).end();
    return;
  }
  let range: { start: number; end: number } | undefined;
  const ranges = req.headers.range && stat.size > 0 ? req.range(stat.size, { combine: true }) : undefined;
  // An If-Range that no longer matches asks for the whole file.
  const ifRange = req.headers["if-range"];
  const rangeStillValid = !ifRange || ifRange === stat.etag || ifRange === stat.modified.toUTCString();
  if (ranges === -1) {
    res.removeHeader("Content-Disposition");
    res.setHeader("Content-Range", `bytes */${stat.size}`);
    res.status(416).end();
    return;
  }
  if (Array.isArray(ranges) && ranges.type === "bytes" && ranges.length === 1 && rangeStillValid) {
    range = { start: ranges[0]!.start, end: ranges[0]!.end };
    res.status(206);
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
  }
  res.setHeader("Content-Length", String(range ? range.end - range.start + 1 : stat.size));
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const body = stat.size === 0 ? Readable.from([]) : await file.store.read(file.path, range);
  await pipeline(body, res).catch((err: unknown) => {
    // The client went away: nothing to answer.
    if (!res.destroyed) throw err;
  });
}
