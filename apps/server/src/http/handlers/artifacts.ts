import type { Request } from "express";
import * as artifacts from "../../core/artifacts.js";
import {
  presignedDestinationDownload,
  presignedDownloadUrl,
  presignedUploadUrl,
  type PresignedUrlRequest,
} from "../../core/presigned-urls.js";
import { invalidParameter, TrackerError } from "../../core/errors.js";
import { type CommonContext, handlerTable } from "../operation-handler.js";
import { requireField } from "../../core/values.js";
import { optionalInt, runId } from "../input.js";
import { sendArtifact } from "../artifact-download.js";

/**
 * Artifact operations: list of every revision, revision A's download, the mlflow-artifacts API
 * (spec/ext.yaml: downloadArtifact, uploadArtifact, deleteArtifacts, listArtifactDirectory) and
 * the browser downloads (getRunArtifactFile, getModelVersionArtifactFile), MLflow 2.x's multipart
 * uploads and MLflow 3's presigned URLs (createPresignedUploadUrl, createPresignedDownloadUrl,
 * presignArtifactDownload).
 */

interface OpenApiInfo {
  openapi?: { pathParams?: Record<string, string> };
}

/** The `{artifact_path}` the validator matched (decoded; see artifact-routes.ts). */
function artifactPath(req: Request): string {
  const raw = (req as Request & OpenApiInfo).openapi?.pathParams?.artifact_path ?? "";
  return raw;
}

/** Sends one file of a run's artifacts (revision A's get-artifact and the browser download). */
async function sendRunArtifactFile({
  input,
  services,
  req,
  res,
}: CommonContext & { input: { run_id?: string; run_uuid?: string; path?: string } }): Promise<undefined> {
  await sendArtifact(
    req,
    res,
    await artifacts.runArtifactFile(services, runId(input), requireField("path", input.path)),
  );
  return undefined;
}

/** A base64 header value as bytes of the given length, or 400. */
function base64Digest(value: string, bytes: number, what: string): Buffer {
  const decoded = Buffer.from(value.trim(), "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) || decoded.length !== bytes)
    throw invalidParameter(`${what} is not a base64 digest of ${bytes} bytes`);
  return decoded;
}

/** `Digest: sha-256=<b64>[, md5=...]` (RFC 3230): the SHA-256 value, if given. */
function sha256Of(header: string | undefined): Buffer | undefined {
  if (!header) return undefined;
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim().toLowerCase() === "sha-256")
      return base64Digest(part.slice(eq + 1), 32, "Digest sha-256");
  }
  return undefined;
}

/** The owner, path and lifetime of a presigned URL request. */
const presignRequest = (input: {
  run_id?: string;
  model_id?: string;
  path: string;
  expiration?: number | string;
}): PresignedUrlRequest => ({
  runId: input.run_id || undefined,
  modelId: input.model_id || undefined,
  path: input.path,
  expiration: optionalInt("expiration", input.expiration),
});

function contentLength(req: Request): number | undefined {
  const raw = req.headers["content-length"];
  return raw === undefined ? undefined : Number(raw);
}

export const artifactHandlers = handlerTable({
  async listArtifacts({ input, services }) {
    const { rootUri, page } = await artifacts.listArtifacts(
      services,
      runId(input),
      input.path,
      "page_token" in input ? input.page_token : undefined,
    );
    const files = page.items.map((f) =>
      f.isDir ? { path: f.path, is_dir: true } : { path: f.path, is_dir: false, file_size: f.fileSize },
    );
    return page.nextPageToken
      ? { root_uri: rootUri, files, next_page_token: page.nextPageToken }
      : { root_uri: rootUri, files };
  },

  getArtifact: sendRunArtifactFile,

  getRunArtifactFile: sendRunArtifactFile,

  async getModelVersionArtifactFile({ input, services, req, res }) {
    const file = await artifacts.modelVersionArtifactFile(
      services,
      requireField("name", input.name),
      requireField("version", input.version),
      requireField("path", input.path),
    );
    await sendArtifact(req, res, file);
    return undefined;
  },

  async downloadArtifact({ services, req, res }) {
    await sendArtifact(req, res, await artifacts.destinationFile(services, artifactPath(req)));
    return undefined;
  },

  async uploadArtifact({ services, req, res }) {
    try {
      const md5Header = req.headers["content-md5"];
      await artifacts.uploadToDestination(services, artifactPath(req), req, {
        expectedLength: contentLength(req),
        md5: typeof md5Header === "string" ? base64Digest(md5Header, 16, "Content-MD5") : undefined,
        sha256: sha256Of(typeof req.headers.digest === "string" ? req.headers.digest : undefined),
      });
    } catch (err) {
      // The body may be unread: answer, then close the connection rather than read the rest.
      if (!req.readableEnded) res.setHeader("Connection", "close");
      if (err instanceof TrackerError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (req.destroyed || code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE")
        throw invalidParameter("The upload ended before its end; nothing was stored");
      throw err;
    }
    return {};
  },

  async deleteArtifacts({ services, req }) {
    await artifacts.deleteFromDestination(services, artifactPath(req));
    return {};
  },

  async createMultipartUpload({ input, services, req }) {
    const started = await artifacts.createMultipartUpload(
      services,
      { directory: artifactPath(req), fileName: input.path },
      Number(input.num_parts ?? 1),
    );
    return {
      upload_id: started.uploadId,
      credentials: started.credentials.map((c) => ({ url: c.url, part_number: c.partNumber, headers: {} })),
    };
  },

  async completeMultipartUpload({ input, services, req }) {
    await artifacts.completeMultipartUpload(
      services,
      { directory: artifactPath(req), fileName: input.path },
      input.upload_id,
      input.parts.map((part) => ({ partNumber: Number(part.part_number), etag: part.etag })),
    );
    return {};
  },

  async abortMultipartUpload({ input, services, req }) {
    await artifacts.abortMultipartUpload(
      services,
      { directory: artifactPath(req), fileName: input.path },
      input.upload_id,
    );
    return {};
  },

  async createPresignedUploadUrl({ input, services }) {
    const signed = await presignedUploadUrl(services, presignRequest(input));
    return { presigned_url: signed.url, headers: signed.headers };
  },

  async createPresignedDownloadUrl({ input, services }) {
    const signed = await presignedDownloadUrl(services, presignRequest(input));
    return { presigned_url: signed.url, headers: signed.headers, file_size: signed.fileSize };
  },

  async presignArtifactDownload({ services, req }) {
    const signed = await presignedDestinationDownload(services, artifactPath(req));
    return { url: signed.url, headers: signed.headers, file_size: signed.fileSize };
  },

  async listArtifactDirectory({ input, services }) {
    const entries = await artifacts.listDestination(services, input.path ?? "");
    if (!entries || entries.length === 0) return {};
    return {
      files: entries.map((e) =>
        e.isDir ? { path: e.name, is_dir: true } : { path: e.name, is_dir: false, file_size: e.size },
      ),
    };
  },
});
