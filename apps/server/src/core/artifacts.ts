import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Readable } from "node:stream";
import type { TrackerConfig } from "../config/config.js";
import type { Services } from "./services.js";
import { invalidParameter, notFound, TrackerError } from "./errors.js";
import type { Page } from "./model.js";
import { checkRunActive, getRun } from "./runs.js";
import { getModelVersion } from "./registry/model-versions.js";
import { decodeCursorToken, encodeCursorToken } from "../search/page-token.js";
import { currentLifecycleStage } from "./run-lifecycle-reads.js";
import {
  baseName,
  checkArtifactPath,
  joinArtifactPath,
  ROOT_PATH,
  type ArtifactPath,
} from "./artifact-store/artifact-path.js";
import type { ArtifactEntry, ArtifactStat, ArtifactStore, WriteOptions } from "./artifact-store/artifact-store.js";
import { LocalFolderStore } from "./artifact-store/local-folder-store.js";
import { makeS3Client, S3Store } from "./artifact-store/s3-store.js";
import { isS3Uri, parseS3Uri, s3PathBelow } from "../config/s3-location.js";
import type { S3Client } from "@aws-sdk/client-s3";

/**
 * Run artifacts, wherever they live: proxied runs (`mlflow-artifacts:` URIs) in the artifacts
 * destination, runs with local folders below the server's artifact root. Every artifact URI is
 * mapped to a store and a checked path inside it (`locate`), so every read, write and delete goes
 * through one store and one path check (artifact-store/artifact-path.ts).
 */

export interface FileInfoRecord {
  path: string;
  isDir: boolean;
  fileSize?: number;
}

export const ARTIFACT_PAGE_SIZE = 1000;

/** The stores of a server: the artifacts destination, and the default artifact root (folders or S3). */
export interface ArtifactStores {
  destination: ArtifactStore;
  /** The store of the default artifact root: runs whose artifact URIs are folders (or s3:// URIs) below it. */
  root: ArtifactStore;
  /** The S3 client of the S3 stores, made when one is configured. */
  s3Client?: S3Client;
}

// Store objects per configuration (they hold where artifacts live, never what is there): safe
// with several server processes over one destination.
const storesByConfig = new WeakMap<TrackerConfig, ArtifactStores>();

export function artifactStores(config: TrackerConfig): ArtifactStores {
  let stores = storesByConfig.get(config);
  if (!stores) {
    let s3Client: S3Client | undefined;
    const s3Store = (uri: string) => {
      s3Client ??= makeS3Client({ forcePathStyle: config.s3PathStyle });
      return new S3Store(s3Client, parseS3Uri(uri)!);
    };
    const destination = isS3Uri(config.artifactsDestination)
      ? s3Store(config.artifactsDestination)
      : new LocalFolderStore(config.artifactsDestination);
    let root: ArtifactStore;
    if (config.artifactRoot === config.artifactsDestination) root = destination;
    else if (isS3Uri(config.artifactRoot)) root = s3Store(config.artifactRoot);
    else
      root = new LocalFolderStore(config.artifactRoot, {
        hidden: destination instanceof LocalFolderStore ? [destination.uploadFolder] : [],
      });
    stores = { destination, root, ...(s3Client ? { s3Client } : {}) };
    storesByConfig.set(config, stores);
  }
  return stores;
}

/**
 * Removes what uploads cut short by a crash left in the destination's upload folder (at start-up,
 * before serving); returns how many temporary files it removed. S3 keeps no such files: an upload
 * the server could not finish is aborted, and a multipart upload left unfinished by a crash (or by a
 * client that gave up on its presigned parts) goes with abortAbandonedMultipartUploads.
 */
export async function sweepUploads(config: TrackerConfig): Promise<number> {
  const { destination } = artifactStores(config);
  return destination instanceof LocalFolderStore ? destination.sweepUploads() : 0;
}

/** The S3 stores of a configuration (the destination and the default artifact root), each once. */
export function s3Stores(config: TrackerConfig): S3Store[] {
  const { destination, root } = artifactStores(config);
  return [...new Set([destination, root])].filter((store): store is S3Store => store instanceof S3Store);
}

/**
 * Aborts the multipart uploads in the server's S3 stores started more than `olderThanMs` ago;
 * returns how many. Safe with several servers over one bucket: an upload another server aborted
 * first is skipped. An upload in progress is younger than any sensible age (a proxied upload ends
 * with its request; MLflow's presigned part URLs live an hour).
 */
export async function abortAbandonedMultipartUploads(
  config: TrackerConfig,
  olderThanMs: number,
  now: Date = new Date(),
): Promise<number> {
  const startedBefore = new Date(now.getTime() - olderThanMs);
  let aborted = 0;
  for (const store of s3Stores(config)) aborted += await store.abortMultipartUploadsStartedBefore(startedBefore);
  return aborted;
}

/** A place in a store. */
export interface ArtifactLocation {
  store: ArtifactStore;
  path: ArtifactPath;
}

const MLFLOW_ARTIFACTS_ANCHOR = "/api/2.0/mlflow-artifacts/artifacts";

const inside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/** The local directory of an artifact URI (`/abs/path` or `file:`), or undefined for other schemes. */
export function localArtifactRoot(artifactUri: string): string | undefined {
  if (artifactUri.startsWith("file://")) return fileURLToPath(artifactUri);
  if (artifactUri.startsWith("file:")) return artifactUri.slice("file:".length);
  if (path.isAbsolute(artifactUri)) return artifactUri;
  return undefined;
}

/**
 * Where an artifact URI's files are: `mlflow-artifacts:[//host:port]/<path>` and
 * `http(s)://.../api/2.0/mlflow-artifacts/artifacts/<path>` in the destination (the host is
 * ignored, as MLflow's server does), a local folder or an s3:// URI in the store it lies under.
 * Undefined for remote locations the server does not read (s3:// outside its stores, gs://, ...). A local folder outside both roots is
 * refused (400): a client must not read `/etc` by creating an experiment located there.
 */
export function locate(config: TrackerConfig, artifactUri: string): ArtifactLocation | undefined {
  const stores = artifactStores(config);
  if (/^mlflow-artifacts:/i.test(artifactUri)) {
    let rest = artifactUri.slice("mlflow-artifacts:".length);
    if (rest.startsWith("//")) rest = rest.slice(2).replace(/^[^/]*/, "");
    return {
      store: stores.destination,
      path: checkArtifactPath(decodeSafely(rest.replace(/^\/+/, "")), "artifact location"),
    };
  }
  if (/^https?:\/\//i.test(artifactUri)) {
    const at = artifactUri.indexOf(MLFLOW_ARTIFACTS_ANCHOR);
    if (at === -1) return undefined;
    const rest = artifactUri.slice(at + MLFLOW_ARTIFACTS_ANCHOR.length).replace(/[?#].*$/, "");
    return {
      store: stores.destination,
      path: checkArtifactPath(decodeSafely(rest.replace(/^\/+/, "")), "artifact location"),
    };
  }
  if (isS3Uri(artifactUri)) {
    for (const store of [stores.root, stores.destination]) {
      if (!(store instanceof S3Store)) continue;
      const below = s3PathBelow(store.location, artifactUri);
      if (below !== undefined) return { store, path: checkArtifactPath(below, "artifact location") };
    }
    return undefined;
  }
  let local: string | undefined;
  try {
    local = localArtifactRoot(artifactUri);
  } catch {
    throw invalidParameter(`The artifact location '${artifactUri}' is not a valid local path`);
  }
  if (local === undefined) return undefined;
  const resolved = path.resolve(local);
  for (const store of [stores.root, stores.destination]) {
    if (!(store instanceof LocalFolderStore)) continue;
    const root = path.resolve(store.root);
    if (inside(resolved, root)) {
      return {
        store,
        path: checkArtifactPath(path.relative(root, resolved).split(path.sep).join("/"), "artifact location"),
      };
    }
  }
  throw invalidParameter(
    `The artifact location '${artifactUri}' is outside the server's artifact root; its files are not served`,
  );
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The run's artifact root in its store, or undefined when the run's artifacts are not served. */
async function runLocation(
  services: Services,
  runId: string,
): Promise<{ rootUri: string; location: ArtifactLocation | undefined }> {
  const run = await getRun(services, runId);
  return { rootUri: run.info.artifactUri, location: locate(services.config, run.info.artifactUri) };
}

const toRecord = (prefix: string, e: ArtifactEntry): FileInfoRecord => {
  const entryPath = prefix ? `${prefix}/${e.name}` : e.name;
  return e.isDir ? { path: entryPath, isDir: true } : { path: entryPath, isDir: false, fileSize: e.size };
};

/**
 * artifacts/list of every revision: one level, run-relative paths, pages of ARTIFACT_PAGE_SIZE; a
 * page costs the store one page's work (the token holds the store's cursor).
 */
export async function listArtifacts(
  services: Services,
  runId: string,
  relativePath: string | undefined,
  pageToken?: string,
): Promise<{ rootUri: string; page: Page<FileInfoRecord> }> {
  const relative = checkArtifactPath(relativePath ?? "");
  const { rootUri, location } = await runLocation(services, runId);
  const cursor = pageToken ? decodeCursorToken(pageToken) : undefined;
  if (!location) return { rootUri, page: { items: [] } };
  const page = await location.store.listPage(joinArtifactPath(location.path, relative), ARTIFACT_PAGE_SIZE, cursor);
  const items = (page?.entries ?? []).map((e) => toRecord(relative, e));
  return { rootUri, page: { items, ...(page?.next ? { nextPageToken: encodeCursorToken(page.next) } : {}) } };
}

/**
 * One level of the directory `relativePath` below an artifact URI (a logged model's artifacts):
 * paths relative to the URI; nothing for a URI whose files the server does not hold.
 */
export async function listArtifactDirectory(
  services: Services,
  rootUri: string,
  relativePath: string | undefined,
): Promise<FileInfoRecord[]> {
  const relative = checkArtifactPath(relativePath ?? "");
  const location = locate(services.config, rootUri);
  if (!location) return [];
  const entries = (await location.store.list(joinArtifactPath(location.path, relative))) ?? [];
  return entries.map((e) => toRecord(relative, e));
}

/** A file to send: its store and checked path, after checking it exists and is a file (404 otherwise). */
export interface ArtifactFile extends ArtifactLocation {
  name: string;
  /** What the store said of the file when it was looked up. */
  stat: ArtifactStat;
}

export async function existingFile(location: ArtifactLocation | undefined, shown: string): Promise<ArtifactFile> {
  if (!location) throw notFound(`Artifact '${shown}' is not stored on this server`);
  const stat = await location.store.stat(location.path);
  if (!stat) throw notFound(`Artifact '${shown}' not found`);
  if (stat.isDir) throw notFound(`Artifact '${shown}' is a directory, not a file`);
  return { ...location, name: baseName(location.path), stat };
}

/** A checked path that names a file (not the root): 400 otherwise. */
export function requireFilePath(relativePath: string): ArtifactPath {
  const relative = checkArtifactPath(relativePath);
  if (!relative) throw invalidParameter("path must name a file");
  return relative;
}

/** A file below an artifact URI (a logged model's artifacts); 404 when it is not a file the server holds. */
export async function artifactFileBelow(
  services: Services,
  rootUri: string,
  relativePath: string,
): Promise<ArtifactFile> {
  const relative = requireFilePath(relativePath);
  const location = locate(services.config, rootUri);
  return existingFile(
    location && { store: location.store, path: joinArtifactPath(location.path, relative) },
    relativePath,
  );
}

/** A run's artifact file (revision A's artifacts/get, /get-artifact). */
export async function runArtifactFile(services: Services, runId: string, relativePath: string): Promise<ArtifactFile> {
  const relative = requireFilePath(relativePath);
  const { location } = await runLocation(services, runId);
  return existingFile(
    location && { store: location.store, path: joinArtifactPath(location.path, relative) },
    relativePath,
  );
}

/**
 * A file below a model version's source (/model-versions/get-artifact): `runs:/<run_id>/<path>`
 * resolves to that run's artifacts, other sources as artifact URIs.
 */
export async function modelVersionArtifactFile(
  services: Services,
  name: string,
  version: string,
  relativePath: string,
): Promise<ArtifactFile> {
  const relative = requireFilePath(relativePath);
  const { source } = await getModelVersion(services, { name, version });
  const runs = /^runs:\/+([^/]+)\/?(.*)$/.exec(source);
  let location: ArtifactLocation | undefined;
  if (runs) {
    const run = await runLocation(services, runs[1]!);
    location = run.location && {
      store: run.location.store,
      path: joinArtifactPath(run.location.path, checkArtifactPath(runs[2]!, "source")),
    };
  } else {
    location = locate(services.config, source);
  }
  return existingFile(
    location && { store: location.store, path: joinArtifactPath(location.path, relative) },
    relativePath,
  );
}

// The mlflow-artifacts API: paths relative to the artifacts destination.

/**
 * Whether MLflow's clients may move files of the artifact service straight to and from the object
 * store (multipart uploads to presigned URLs, presigned downloads): the server serves artifacts
 * and its destination is in S3. MLflow 3's server-info advertises this.
 */
export function artifactServicePresigns(config: TrackerConfig): boolean {
  return config.serveArtifacts && artifactStores(config).destination instanceof S3Store;
}

/** One level below `rawPath` (basenames), or undefined when it is not a directory. */
export async function listDestination(services: Services, rawPath: string): Promise<ArtifactEntry[] | undefined> {
  return artifactStores(services.config).destination.list(checkArtifactPath(rawPath));
}

export async function destinationFile(services: Services, rawPath: string): Promise<ArtifactFile> {
  return existingFile({ store: artifactStores(services.config).destination, path: requireFilePath(rawPath) }, rawPath);
}

const RUN_ID = /^[0-9a-f]{32}$/;

/**
 * Refuses a write below a deleted run: `<experiment_id>/<run_id>/artifacts/...` names the run
 * whose artifact URI it is (as tracker and MLflow lay proxied runs out). Asked of the database on
 * every upload (concurrent uploads share one read, run-lifecycle-reads.ts): a per-process memo of
 * runs seen active answered stale data when another server process (or a worker) deleted the run
 * meanwhile.
 */
async function refuseDeletedRun(services: Services, p: ArtifactPath): Promise<void> {
  const [, runId] = p.split("/");
  if (!runId || !RUN_ID.test(runId)) return;
  const stage = await currentLifecycleStage(services.knex, runId);
  if (stage !== undefined) checkRunActive(runId, stage);
}

export async function uploadToDestination(
  services: Services,
  rawPath: string,
  body: Readable,
  options: Omit<WriteOptions, "maxBytes">,
): Promise<void> {
  const p = requireFilePath(rawPath);
  await refuseDeletedRun(services, p);
  // The client went away while the run was checked (a burst of cut uploads): nothing to store, so
  // no folder, temporary file or S3 request is made for it.
  if (body.destroyed && !body.readableEnded)
    throw invalidParameter("The upload ended before its end; nothing was stored");
  await artifactStores(services.config).destination.write(p, body, {
    ...options,
    maxBytes: services.config.maxArtifactSize,
  });
}

export async function deleteFromDestination(services: Services, rawPath: string): Promise<void> {
  const p = checkArtifactPath(rawPath);
  if (p === ROOT_PATH) throw invalidParameter("path must name a directory below the artifacts destination");
  await artifactStores(services.config).destination.delete(p);
}

// MLflow 2.x's multipart uploads (mlflow-artifacts/mpu/...): straight to the object store.

export interface MultipartTarget {
  /** The directory (`artifact_path` of the URL). */
  directory: string;
  /** The client's file name; its basename names the file in the directory (as MLflow does). */
  fileName: string;
}

/** The S3 destination and the checked path of a multipart upload; 501 when the destination is a folder. */
function multipartTarget(services: Services, target: MultipartTarget): { store: S3Store; path: ArtifactPath } {
  const { destination } = artifactStores(services.config);
  if (!(destination instanceof S3Store))
    throw new TrackerError(
      "NOT_IMPLEMENTED",
      "Multipart upload is not supported for the current artifact repository: the artifacts destination is a folder; upload the file whole",
    );
  const name = target.fileName.replace(/\/+$/, "");
  const base = checkArtifactPath(name.slice(name.lastIndexOf("/") + 1), "path");
  if (!base) throw invalidParameter("path must name a file");
  return { store: destination, path: joinArtifactPath(checkArtifactPath(target.directory), base) };
}

export async function createMultipartUpload(
  services: Services,
  target: MultipartTarget,
  parts: number,
): Promise<{ uploadId: string; credentials: { partNumber: number; url: string }[] }> {
  const { store, path: p } = multipartTarget(services, target);
  await refuseDeletedRun(services, p);
  const started = await store.startMultipartUpload(p, parts);
  return { uploadId: started.uploadId, credentials: started.parts };
}

export async function completeMultipartUpload(
  services: Services,
  target: MultipartTarget,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
): Promise<void> {
  const { store, path: p } = multipartTarget(services, target);
  await store.completeMultipartUpload(p, uploadId, parts, services.config.maxArtifactSize);
}

export async function abortMultipartUpload(
  services: Services,
  target: MultipartTarget,
  uploadId: string,
): Promise<void> {
  const { store, path: p } = multipartTarget(services, target);
  await store.abortMultipartUpload(p, uploadId);
}
