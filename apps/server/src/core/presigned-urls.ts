import type { Services } from "./services.js";
import { invalidParameter, TrackerError } from "./errors.js";
import { checkRunActive, getRun } from "./runs.js";
import { getLoggedModel } from "./logged-models.js";
import { artifactStores, existingFile, locate, requireFilePath } from "./artifacts.js";
import { joinArtifactPath, type ArtifactPath } from "./artifact-store/artifact-path.js";
import { MAX_PRESIGNED_URL_SECONDS, S3Store } from "./artifact-store/s3-store.js";

/**
 * MLflow 3's presigned artifact URLs (`artifacts/presigned-upload-url` and
 * `artifacts/presigned-download-url` of its tracking API): a URL, signed with the server's
 * credentials, to PUT one file to or GET it from, straight to or from the object store. The file is
 * one of a run's (`run_id`) or of a logged model's (`model_id`) artifacts, named by its path below
 * the owner's artifact URI and checked as every artifact path. Only where that URI lies in one of
 * the server's S3 stores: on a local folder (or a location the server does not hold) it is 501
 * NOT_IMPLEMENTED, on which clients go through the artifact service instead. Also MLflow 3's
 * multipart download of the proxied artifact service (`mlflow-artifacts/presigned/<path>`): a GET
 * URL of a file of the artifacts destination, which the client reads in ranges.
 */

/** Seconds an upload URL stays valid when the request names none. */
export const DEFAULT_UPLOAD_URL_SECONDS = 900;
/** Seconds a download URL stays valid when the request names none (MLflow's MLFLOW_PRESIGNED_DOWNLOAD_URL_TTL_SECONDS). */
export const DEFAULT_DOWNLOAD_URL_SECONDS = 300;

export interface PresignedUrlRequest {
  runId?: string;
  modelId?: string;
  /** The file's path below the owner's artifact URI. */
  path: string;
  /** Seconds the URL stays valid. */
  expiration?: number;
}

export interface PresignedUrl {
  url: string;
  /** Headers to send with the request to the URL (none for S3). */
  headers: Record<string, string>;
}

function expiresIn(requested: number | undefined, fallback: number): number {
  if (requested === undefined) return fallback;
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_PRESIGNED_URL_SECONDS)
    throw invalidParameter(
      `Invalid value ${requested} for parameter 'expiration': expected seconds from 1 to ${MAX_PRESIGNED_URL_SECONDS}`,
    );
  return requested;
}

/** The artifact URI of the run or logged model the request names (exactly one); a run to write to must be active. */
async function ownerArtifactUri(services: Services, request: PresignedUrlRequest, writing: boolean): Promise<string> {
  const { runId, modelId } = request;
  if (Boolean(runId) === Boolean(modelId))
    throw invalidParameter("Exactly one of 'run_id' and 'model_id' must be provided");
  if (runId) {
    const run = await getRun(services, runId);
    if (writing) checkRunActive(runId, run.info.lifecycleStage);
    return run.info.artifactUri;
  }
  return (await getLoggedModel(services, modelId!)).artifactUri;
}

/** The S3 store and path of the requested file; 501 when its owner's artifacts are not on S3 here. */
async function s3File(
  services: Services,
  request: PresignedUrlRequest,
  writing: boolean,
): Promise<{ store: S3Store; path: ArtifactPath }> {
  const relative = requireFilePath(request.path);
  const rootUri = await ownerArtifactUri(services, request, writing);
  const location = locate(services.config, rootUri);
  if (!location || !(location.store instanceof S3Store))
    throw new TrackerError(
      "NOT_IMPLEMENTED",
      `Presigned URLs are not supported for the artifact location '${rootUri}': ${
        location ? "its files are in a local folder of the server" : "the server does not hold its files"
      }; upload and download through the artifact service instead`,
    );
  return { store: location.store, path: joinArtifactPath(location.path, relative) };
}

/** A URL to PUT the file to (it need not exist; a directory or a path below a file is 400). */
export async function presignedUploadUrl(services: Services, request: PresignedUrlRequest): Promise<PresignedUrl> {
  const seconds = expiresIn(request.expiration, DEFAULT_UPLOAD_URL_SECONDS);
  const { store, path } = await s3File(services, request, true);
  return { url: await store.presignUpload(path, { expiresIn: seconds }), headers: {} };
}

/** A URL to GET the file from, with its size; 404 when it is not a file. */
export async function presignedDownloadUrl(
  services: Services,
  request: PresignedUrlRequest,
): Promise<PresignedUrl & { fileSize: number }> {
  const seconds = expiresIn(request.expiration, DEFAULT_DOWNLOAD_URL_SECONDS);
  const { store, path } = await s3File(services, request, false);
  const file = await existingFile({ store, path }, request.path);
  return { url: await store.presignDownload(path, { expiresIn: seconds }), headers: {}, fileSize: file.stat.size };
}

/**
 * A URL to GET a file of the artifacts destination from (`rawPath` relative to it), with its size;
 * 501 when the destination is a folder (in MLflow's words), 404 when the path is not a file.
 */
export async function presignedDestinationDownload(
  services: Services,
  rawPath: string,
): Promise<PresignedUrl & { fileSize: number }> {
  const path = requireFilePath(rawPath);
  const { destination } = artifactStores(services.config);
  if (!(destination instanceof S3Store))
    throw new TrackerError(
      "NOT_IMPLEMENTED",
      "Multipart download is not supported for the current artifact repository: the artifacts destination is a folder; download the file whole",
    );
  const file = await existingFile({ store: destination, path }, rawPath);
  const url = await destination.presignDownload(path, { expiresIn: DEFAULT_DOWNLOAD_URL_SECONDS });
  return { url, headers: {}, fileSize: file.stat.size };
}
