import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsV2Command,
  ListPartsCommand,
  type ListPartsCommandOutput,
  PutObjectCommand,
  UploadPartCommand,
  type ListObjectsV2CommandOutput,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Readable } from "node:stream";
import { invalidParameter, notFound, TrackerError } from "../errors.js";
import { ROOT_PATH, type ArtifactPath } from "./artifact-path.js";
import type { ArtifactEntry, ArtifactPage, ArtifactStat, ArtifactStore, WriteOptions } from "./artifact-store.js";
import { partLimitsFor, type PartTarget, uploadInParts } from "./part-upload.js";
import { meteredUpload, refuseAnnouncedTooLarge, tooLarge } from "./metered-upload.js";
import { formatS3Uri, type S3Location } from "../../config/s3-location.js";

/**
 * Artifacts in S3-compatible object storage, below `s3://bucket/prefix`. An artifact path `a/b` is
 * the key `prefix/a/b`; a directory is a key prefix (`prefix/a/`), which exists while an object is
 * below it. Bodies stream both ways: uploads go out while they arrive (uploadInParts: one
 * PutObject for a small file, a multipart upload in parts of
 * partLimitsFor's size for a large one, holding at most 5 parts in memory, aborted when
 * the body fails), downloads come straight from GetObject. The client's endpoint, region and
 * credentials come from the AWS SDK's standard sources (AWS_ENDPOINT_URL, AWS_REGION,
 * AWS_ACCESS_KEY_ID, ~/.aws/config, ...).
 */

/** The most keys one ListObjectsV2 answer holds. */
const LIST_PAGE_KEYS = 1000;

export interface S3ClientOptions {
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** An endpoint other than the SDK's (AWS_ENDPOINT_URL, or AWS's own). */
  endpoint?: string;
}

/** An S3 client configured the AWS way, with the settings S3-compatible servers need. */
export function makeS3Client(options: S3ClientOptions, env: NodeJS.ProcessEnv = process.env): S3Client {
  return new S3Client({
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    // boto3's choice when nothing names a region (S3 itself answers every region's requests).
    ...(env.AWS_REGION || env.AWS_DEFAULT_REGION || env.AWS_PROFILE || env.AWS_CONFIG_FILE
      ? {}
      : { region: "us-east-1" }),
    // The SDK's default checksums use aws-chunked bodies with trailers for streamed uploads, which
    // S3-compatible servers (Ceph radosgw) refuse (411 MissingContentLength).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

const statusOf = (err: unknown): number | undefined =>
  (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

export const isS3NotFound = (err: unknown): boolean =>
  err instanceof S3ServiceException && (err.name === "NoSuchKey" || err.name === "NotFound" || statusOf(err) === 404);

/**
 * What the API says when S3 fails: a TrackerError for what the client can act on (404 for a
 * missing object, 503 when the store cannot be reached or refuses the server), the error itself
 * otherwise. Messages name the store, never the credentials.
 */
export function s3Failure(err: unknown, where: string, shown: string): unknown {
  if (err instanceof TrackerError) return err;
  const unavailable = (why: string) =>
    new TrackerError("TEMPORARILY_UNAVAILABLE", `The artifact store ${where} ${why}; try again later`);
  if (err instanceof S3ServiceException) {
    if (err.name === "NoSuchBucket") return unavailable("has no such bucket");
    if (isS3NotFound(err)) return notFound(`Artifact '${shown}' not found`);
    const status = statusOf(err) ?? 500;
    if (status === 403 || status === 401 || err.name === "InvalidAccessKeyId" || err.name === "SignatureDoesNotMatch")
      return unavailable(`refused the server's credentials (${err.name})`);
    if (status >= 500) return unavailable(`failed (${err.name})`);
    return err;
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const name = (err as Error | undefined)?.name;
  if ((code && NETWORK_CODES.has(code)) || name === "TimeoutError" || name === "CredentialsProviderError")
    return unavailable(name === "CredentialsProviderError" ? "has no credentials configured" : "is unreachable");
  return err;
}

/** How long the presigned part URLs of MLflow 2.x's multipart uploads stay valid. */
export const PRESIGNED_URL_SECONDS = 3600;

/** Longest a presigned URL can stay valid: SigV4 signs for at most a week. */
export const MAX_PRESIGNED_URL_SECONDS = 7 * 24 * 3600;

export interface PresignOptions {
  /** Seconds the URL stays valid, from 1 to MAX_PRESIGNED_URL_SECONDS (checked by the caller). */
  expiresIn: number;
  /** When the URL is signed (now when absent): a time in the past gives an expired URL, for tests. */
  signingDate?: Date;
}

export interface PresignedPart {
  partNumber: number;
  url: string;
}

const isNoSuchUpload = (err: unknown): boolean =>
  err instanceof S3ServiceException && (err.name === "NoSuchUpload" || statusOf(err) === 404);

const byName = (a: ArtifactEntry, b: ArtifactEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class S3Store implements ArtifactStore {
  readonly uri: string;

  constructor(
    readonly client: S3Client,
    readonly location: S3Location,
  ) {
    this.uri = formatS3Uri(location);
  }

  /** The object key of a path (the prefix itself for the root). */
  key(p: ArtifactPath): string {
    return this.location.prefix && p ? `${this.location.prefix}/${p}` : this.location.prefix || p;
  }

  /** The key prefix of everything below a path (`prefix/p/`, or "" for the root of a bucket). */
  private below(p: ArtifactPath): string {
    const key = this.key(p);
    return key ? `${key}/` : "";
  }

  private async call<T>(p: ArtifactPath, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw s3Failure(err, this.uri, p);
    }
  }

  /** True when at least one object lies below the path (a directory). */
  private async hasObjectsBelow(p: ArtifactPath): Promise<boolean> {
    const out = await this.call(p, () =>
      this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.below(p), MaxKeys: 1 })),
    );
    return (out.KeyCount ?? out.Contents?.length ?? 0) > 0 || (out.CommonPrefixes?.length ?? 0) > 0;
  }

  /** The object at the path, or undefined when there is none. */
  private async head(p: ArtifactPath): Promise<ArtifactStat | undefined> {
    if (!p) return undefined;
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(p) }));
      return {
        isDir: false,
        size: out.ContentLength ?? 0,
        modified: out.LastModified ?? new Date(0),
        ...(out.ETag ? { etag: out.ETag } : {}),
      };
    } catch (err) {
      if (isS3NotFound(err)) return undefined;
      throw s3Failure(err, this.uri, p);
    }
  }

  async stat(p: ArtifactPath): Promise<ArtifactStat | undefined> {
    if (!p) return { isDir: true, size: 0, modified: new Date(0) };
    const [file, dir] = await Promise.all([this.head(p), this.hasObjectsBelow(p)]);
    if (file) return file;
    return dir ? { isDir: true, size: 0, modified: new Date(0) } : undefined;
  }

  async list(p: ArtifactPath): Promise<ArtifactEntry[] | undefined> {
    const entries: ArtifactEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listPage(p, LIST_PAGE_KEYS, cursor);
      if (!page) return undefined;
      entries.push(...page.entries);
      cursor = page.next;
    } while (cursor);
    return entries.sort(byName);
  }

  /**
   * ListObjectsV2 with the delimiter, from S3's continuation token on: one S3 request per page of
   * up to 1,000 entries. Across pages the order is S3's (by key, a folder counting as `name/`). A
   * name that is both a file and the prefix of other keys is listed twice, as a directory and as a
   * file (the directory first), as MLflow lists it; stat and read then give the file.
   */
  async listPage(p: ArtifactPath, limit: number, cursor?: string): Promise<ArtifactPage | undefined> {
    const prefix = this.below(p);
    const entries: ArtifactEntry[] = [];
    let token = cursor;
    do {
      const page: ListObjectsV2CommandOutput = await this.call(p, async () => {
        try {
          return await this.client.send(
            new ListObjectsV2Command({
              Bucket: this.location.bucket,
              Prefix: prefix,
              Delimiter: "/",
              ContinuationToken: token,
              MaxKeys: Math.min(LIST_PAGE_KEYS, limit - entries.length),
            }),
          );
        } catch (err) {
          // A continuation token S3 did not make (a tampered page token).
          if (token !== undefined && err instanceof S3ServiceException && statusOf(err) === 400)
            throw invalidParameter("Invalid page token");
          throw err;
        }
      });
      for (const dir of page.CommonPrefixes ?? []) {
        const name = dir.Prefix?.slice(prefix.length, -1);
        if (name) entries.push({ name, isDir: true });
      }
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(prefix.length);
        // A folder marker (`prefix/p/`) written by other tools is not an entry.
        if (name) entries.push({ name, isDir: false, size: object.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token && entries.length < limit);
    if (entries.length === 0 && p && cursor === undefined) return undefined;
    return { entries: entries.sort(byName), ...(token ? { next: token } : {}) };
  }

  async read(p: ArtifactPath, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.call(p, () =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.location.bucket,
          Key: this.key(p),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      ),
    );
    if (!out.Body) throw notFound(`Artifact '${p}' not found`);
    return out.Body as Readable;
  }

  /**
   * A write needs a file name, and nothing more: S3 has no folders, so a key may also be the prefix
   * of others (`a` and `a/b` both exist), as MLflow's S3 artifact repository lets happen. Refusing
   * that as a folder does (a HEAD per parent and a listing) made six S3 requests of every upload;
   * listings then show the name twice, as a directory and as a file (see listPage).
   */
  private refuseUnwritable(p: ArtifactPath): void {
    if (!p) throw invalidParameter("An artifact path must name a file");
  }

  async write(p: ArtifactPath, body: Readable, options: WriteOptions): Promise<{ size: number }> {
    refuseAnnouncedTooLarge(options);
    this.refuseUnwritable(p);
    return this.call(p, () =>
      meteredUpload(body, options, (checked) =>
        uploadInParts(checked, this.partTarget(this.key(p)), partLimitsFor(options.maxBytes)),
      ),
    );
  }

  /** The S3 requests of an upload to `Key`, for uploadInParts. */
  private partTarget(Key: string): PartTarget {
    const Bucket = this.location.bucket;
    return {
      putWhole: async (Body) => {
        await this.client.send(new PutObjectCommand({ Bucket, Key, Body }));
      },
      start: async () => {
        const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
        if (!UploadId)
          throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The artifact store gave no upload id; try again");
        return UploadId;
      },
      putPart: async (UploadId, PartNumber, Body) => {
        const { ETag } = await this.client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }));
        if (!ETag)
          throw new TrackerError("TEMPORARILY_UNAVAILABLE", `The artifact store gave no ETag for part ${PartNumber}`);
        return ETag;
      },
      complete: async (UploadId, Parts) => {
        await this.client.send(
          new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
        );
      },
      abort: async (UploadId) => {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
      },
    };
  }

  /**
   * A URL to PUT the file at `p` to, straight into the store (a file name, as for a write). The
   * store cannot bound what arrives at it: S3 takes up to 5 GiB.
   */
  async presignUpload(p: ArtifactPath, options: PresignOptions): Promise<string> {
    this.refuseUnwritable(p);
    const command = new PutObjectCommand({ Bucket: this.location.bucket, Key: this.key(p) });
    return this.call(p, () => getSignedUrl(this.client, command, options));
  }

  /** A URL to GET the file at `p` from, straight from the store (the caller checked that it is a file). */
  presignDownload(p: ArtifactPath, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(p) });
    return this.call(p, () => getSignedUrl(this.client, command, options));
  }

  /** Starts a multipart upload of `p` and presigns a PUT URL for each of its `parts` parts. */
  async startMultipartUpload(p: ArtifactPath, parts: number): Promise<{ uploadId: string; parts: PresignedPart[] }> {
    this.refuseUnwritable(p);
    const Key = this.key(p);
    const created = await this.call(p, () =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.location.bucket, Key })),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new TrackerError("TEMPORARILY_UNAVAILABLE", "The artifact store gave no upload id; try again");
    const urls = await Promise.all(
      Array.from({ length: parts }, (_, i) =>
        getSignedUrl(
          this.client,
          new UploadPartCommand({ Bucket: this.location.bucket, Key, UploadId: uploadId, PartNumber: i + 1 }),
          { expiresIn: PRESIGNED_URL_SECONDS },
        ),
      ),
    );
    return { uploadId, parts: urls.map((url, i) => ({ partNumber: i + 1, url })) };
  }

  /**
   * Completes a multipart upload with the parts the client names; the parts the store holds must
   * not exceed `maxBytes` together (else the upload is aborted: 413). 404 for an unknown upload.
   */
  async completeMultipartUpload(
    p: ArtifactPath,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
    maxBytes: number,
  ): Promise<void> {
    const Key = this.key(p);
    const unknown = () => new TrackerError("RESOURCE_DOES_NOT_EXIST", `No multipart upload '${uploadId}' of '${p}'`);
    let total = 0;
    let marker: string | undefined;
    do {
      let page: ListPartsCommandOutput;
      try {
        page = await this.client.send(
          new ListPartsCommand({ Bucket: this.location.bucket, Key, UploadId: uploadId, PartNumberMarker: marker }),
        );
      } catch (err) {
        if (isNoSuchUpload(err)) throw unknown();
        throw s3Failure(err, this.uri, p);
      }
      for (const part of page.Parts ?? []) total += part.Size ?? 0;
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    if (total > maxBytes) {
      await this.abortMultipartUpload(p, uploadId);
      throw tooLarge(maxBytes);
    }
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.location.bucket,
          Key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: [...parts]
              .sort((a, b) => a.partNumber - b.partNumber)
              .map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
          },
        }),
      );
    } catch (err) {
      if (isNoSuchUpload(err)) throw unknown();
      // InvalidPart, InvalidPartOrder, EntityTooSmall: the client's list does not fit what it sent.
      if (err instanceof S3ServiceException && statusOf(err) === 400)
        throw invalidParameter(`The parts do not complete the upload (${err.name})`);
      throw s3Failure(err, this.uri, p);
    }
  }

  /** Aborts a multipart upload; one that is gone already is fine. */
  async abortMultipartUpload(p: ArtifactPath, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.location.bucket, Key: this.key(p), UploadId: uploadId }),
      );
    } catch (err) {
      if (!isNoSuchUpload(err)) throw s3Failure(err, this.uri, p);
    }
  }

  /**
   * Aborts the unfinished multipart uploads below the store's prefix that were started before
   * `startedBefore`: those of a server that crashed mid-upload, or of a client that gave up on its
   * presigned parts. Their parts take space that no listing shows, until aborted. Returns how many
   * it aborted; an upload that completes or goes meanwhile is skipped.
   */
  async abortMultipartUploadsStartedBefore(startedBefore: Date): Promise<number> {
    const Prefix = this.below(ROOT_PATH);
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page: ListMultipartUploadsCommandOutput = await this.call(ROOT_PATH, () =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.location.bucket,
            Prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        ),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated > startedBefore) continue;
        try {
          await this.client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.location.bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          );
          aborted += 1;
        } catch (err) {
          if (!isNoSuchUpload(err)) throw s3Failure(err, this.uri, upload.Key);
        }
      }
      if (!page.IsTruncated || page.NextKeyMarker === undefined) return aborted;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async delete(p: ArtifactPath): Promise<void> {
    if (!p) throw invalidParameter("Refusing to delete the whole artifact store");
    const below = this.below(p);
    // Unfinished multipart uploads below the path go too: they hold data nobody can see.
    const uploads = await this.call(p, () =>
      this.client.send(new ListMultipartUploadsCommand({ Bucket: this.location.bucket, Prefix: below })),
    );
    await Promise.all(
      (uploads.Uploads ?? []).map((u) =>
        this.call(p, () =>
          this.client.send(
            new AbortMultipartUploadCommand({ Bucket: this.location.bucket, Key: u.Key, UploadId: u.UploadId }),
          ),
        ),
      ),
    );
    const keys: string[] = [];
    if (await this.head(p)) keys.push(this.key(p));
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.call(p, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: below, ContinuationToken: token }),
        ),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      // DeleteObjects takes at most 1,000 keys.
      while (keys.length >= 1000 || (!token && keys.length > 0)) await this.deleteKeys(p, keys.splice(0, 1000));
    } while (token);
  }

  private async deleteKeys(p: ArtifactPath, keys: string[]): Promise<void> {
    const out = await this.call(p, () =>
      this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.location.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      ),
    );
    const failed = out.Errors?.[0];
    if (failed)
      throw new TrackerError("TEMPORARILY_UNAVAILABLE", `Could not delete '${p}' (${failed.Code}); try again`);
  }
}
