import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type ListObjectsV2CommandOutput,
  S3Client,
} from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TrackerConfig } from "./server.js";

/**
 * The artifact stores the artifact tests run on: a local folder always, S3 when TEST_S3_URL
 * (`s3://bucket/prefix`, with AWS_ENDPOINT_URL and credentials in the AWS variables) names a
 * bucket, as scripts/s3-throwaway.sh exports for its throwaway Ceph radosgw.
 */
export type TestArtifactStore = "folder" | "s3";

export function testArtifactStores(): TestArtifactStore[] {
  return process.env.TEST_S3_URL ? ["folder", "s3"] : ["folder"];
}

/** Every database of the tests with every artifact store, for `describe.each` (`%s on %s`). */
export function databaseAndStoreCases<D extends string>(databases: D[]): [D, TestArtifactStore][] {
  return databases.flatMap((db) => testArtifactStores().map((store): [D, TestArtifactStore] => [db, store]));
}

/**
 * Every database with a local folder, and S3 once (with the first database) when TEST_S3_URL is set:
 * for suites too long to run on every pair (the web UI's end-to-end tests).
 */
export function storeCasesOnce<D extends string>(databases: D[]): [D, TestArtifactStore][] {
  const cases = databases.map((db): [D, TestArtifactStore] => [db, "folder"]);
  const first = databases[0];
  if (first !== undefined && testArtifactStores().includes("s3")) cases.push([first, "s3"]);
  return cases;
}

/** A fresh place for one server's artifacts: a prefix of its own in the test bucket. */
export function artifactStoreConfig(kind: TestArtifactStore): Partial<TrackerConfig> {
  if (kind === "folder") return {};
  const url = process.env.TEST_S3_URL;
  if (!url) throw new Error("TEST_S3_URL is not set");
  return { artifactsDestination: `${url.replace(/\/+$/, "")}/${randomUUID()}`, s3PathStyle: true };
}

/** The same place as `tracker server` flags (for a server process). */
export function artifactStoreFlags(kind: TestArtifactStore): string[] {
  const config = artifactStoreConfig(kind);
  return config.artifactsDestination ? ["--artifacts-destination", config.artifactsDestination, "--s3-path-style"] : [];
}

/** What a test sees of the files the server stored: paths relative to the artifacts destination. */
export interface StoredArtifacts {
  /** Every file below `dir` (relative to it), sorted; temporaries of a local folder included. */
  files(dir: string): Promise<string[]>;
  /** The bytes of a file, or undefined when there is none. */
  read(file: string): Promise<Buffer | undefined>;
  /** Stores a file straight into the store, past the server (to seed large folders quickly). */
  write(file: string, body: Buffer | string): Promise<void>;
  /** Removes everything (a server's S3 prefix; a folder goes with the server's data dir). */
  clear(): Promise<void>;
}

let s3Client: S3Client | undefined;
/** One client for the tests (the AWS variables of the environment, path-style for radosgw). */
export function testS3Client(): S3Client {
  s3Client ??= new S3Client({
    forcePathStyle: true,
    region: process.env.AWS_REGION ?? "us-east-1",
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return s3Client;
}

function parse(uri: string): { bucket: string; prefix: string } {
  const [bucket, ...rest] = uri.slice("s3://".length).split("/");
  return { bucket: bucket!, prefix: rest.filter(Boolean).join("/") };
}

async function s3Keys(bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page: ListObjectsV2CommandOutput = await testS3Client().send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** The files a server with this destination stored (a folder path or an s3:// URI). */
export function storedArtifacts(destination: string): StoredArtifacts {
  if (!destination.startsWith("s3://")) {
    return {
      async files(dir) {
        const full = path.join(destination, dir);
        if (!fs.existsSync(full)) return [];
        return (fs.readdirSync(full, { recursive: true }) as string[])
          .filter((f) => fs.statSync(path.join(full, f)).isFile())
          .sort();
      },
      async read(file) {
        const full = path.join(destination, file);
        return fs.existsSync(full) ? fs.readFileSync(full) : undefined;
      },
      async write(file, body) {
        const full = path.join(destination, file);
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, body);
      },
      async clear() {},
    };
  }
  const { bucket, prefix } = parse(destination);
  const key = (p: string) => [prefix, p].filter(Boolean).join("/");
  return {
    async files(dir) {
      const below = `${key(dir)}/`;
      return (await s3Keys(bucket, below)).map((k) => k.slice(below.length)).sort();
    },
    async read(file) {
      try {
        const out = await testS3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key(file) }));
        return Buffer.from(await out.Body!.transformToByteArray());
      } catch (err) {
        if ((err as { name?: string }).name === "NoSuchKey") return undefined;
        throw err;
      }
    },
    async write(file, body) {
      await testS3Client().send(new PutObjectCommand({ Bucket: bucket, Key: key(file), Body: body }));
    },
    async clear() {
      const keys = await s3Keys(bucket, `${prefix}/`);
      for (let i = 0; i < keys.length; i += 1000) {
        await testS3Client().send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    },
  };
}
