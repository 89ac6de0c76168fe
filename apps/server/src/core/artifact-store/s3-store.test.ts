import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import { checkArtifactPath } from "./artifact-path.js";
import { parseS3Uri } from "../../config/s3-location.js";
import { makeS3Client, S3Store } from "./s3-store.js";

/**
 * The S3 store against a real S3 server (Ceph radosgw from scripts/s3-throwaway.sh), when
 * TEST_S3_URL is set; the HTTP-level artifact suites run on it too (see @tracker/testing).
 */

const url = process.env.TEST_S3_URL;
const P = (raw: string) => checkArtifactPath(raw);
const LIMIT = 64 * 1024 * 1024;

describe.runIf(url)("S3Store on a real S3 server", () => {
  const root = parseS3Uri(url ?? "s3://x/y")!;
  const client = makeS3Client({ forcePathStyle: true });
  const store = new S3Store(client, { bucket: root.bucket, prefix: `${root.prefix}/store-${randomUUID()}` });
  afterAll(async () => {
    await store.delete(P("d")).catch(() => undefined);
    client.destroy();
  });

  it("writes, stats, lists, reads with a range, and deletes recursively", async () => {
    await store.write(P("d/a.txt"), Readable.from([Buffer.from("hello world")]), {
      maxBytes: LIMIT,
      expectedLength: 11,
    });
    await store.write(P("d/sub/b.bin"), Readable.from([Buffer.from("xyz")]), { maxBytes: LIMIT });
    expect(await store.stat(P("d/a.txt"))).toMatchObject({ isDir: false, size: 11, etag: expect.any(String) });
    expect(await store.stat(P("d/sub"))).toMatchObject({ isDir: true });
    expect(await store.stat(P("d/nope"))).toBeUndefined();
    expect(await store.list(P("d"))).toEqual([
      { name: "a.txt", isDir: false, size: 11 },
      { name: "sub", isDir: true },
    ]);
    expect(await store.list(P("d/a.txt"))).toBeUndefined();
    expect(await store.list(P("nothing"))).toBeUndefined();
    expect((await buffer(await store.read(P("d/a.txt"), { start: 6, end: 10 }))).toString()).toBe("world");
    await expect(store.read(P("d/none.txt"))).rejects.toMatchObject({ code: "RESOURCE_DOES_NOT_EXIST" });
    // S3 has no folders: a file may take a directory's name, or lie below a file. Both names are
    // listed; stat and read give the file, listing gives what lies below.
    await store.write(P("d/sub"), Readable.from([Buffer.from("x")]), { maxBytes: LIMIT });
    await store.write(P("d/a.txt/c"), Readable.from([Buffer.from("yz")]), { maxBytes: LIMIT });
    expect(await store.stat(P("d/sub"))).toMatchObject({ isDir: false, size: 1 });
    expect(await store.list(P("d"))).toEqual([
      { name: "a.txt", isDir: true },
      { name: "a.txt", isDir: false, size: 11 },
      { name: "sub", isDir: true },
      { name: "sub", isDir: false, size: 1 },
    ]);
    expect(await store.list(P("d/a.txt"))).toEqual([{ name: "c", isDir: false, size: 2 }]);
    expect((await buffer(await store.read(P("d/a.txt")))).toString()).toBe("hello world");
    await store.delete(P("d"));
    expect(await store.stat(P("d/a.txt"))).toBeUndefined();
    expect(await store.list(P("d"))).toBeUndefined();
  });

  it("streams a multipart upload and stores it whole; a failed body leaves no object and no unfinished upload", async () => {
    const big = randomBytes(20 * 1024 * 1024);
    const chunks = (n: number) =>
      Readable.from(
        (function* () {
          for (let at = 0; at < n; at += 1024 * 1024) yield big.subarray(at, Math.min(n, at + 1024 * 1024));
        })(),
      );
    const { size } = await store.write(P("d/big.bin"), chunks(big.length), { maxBytes: LIMIT });
    expect(size).toBe(big.length);
    expect((await buffer(await store.read(P("d/big.bin")))).equals(big)).toBe(true);

    const cut = new Readable({ read() {} });
    const writing = store.write(P("d/cut.bin"), cut, { maxBytes: LIMIT, expectedLength: big.length });
    for (let at = 0; at < 18 * 1024 * 1024; at += 1024 * 1024) cut.push(big.subarray(at, at + 1024 * 1024));
    await new Promise((r) => setTimeout(r, 200));
    cut.destroy();
    await expect(writing).rejects.toThrow();
    expect(await store.stat(P("d/cut.bin"))).toBeUndefined();
    const uploads = await client.send(
      new ListMultipartUploadsCommand({ Bucket: root.bucket, Prefix: store.key(P("d/")) }),
    );
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it("refuses bodies over the limit, or shorter than announced, storing nothing", async () => {
    await expect(
      store.write(P("d/large.bin"), Readable.from([randomBytes(2048)]), { maxBytes: 1024 }),
    ).rejects.toMatchObject({ code: "REQUEST_TOO_LARGE" });
    await expect(
      store.write(P("d/short.bin"), Readable.from([randomBytes(10)]), { maxBytes: 1024, expectedLength: 100 }),
    ).rejects.toBeInstanceOf(TrackerError);
    expect(await store.stat(P("d/large.bin"))).toBeUndefined();
    expect(await store.stat(P("d/short.bin"))).toBeUndefined();
  });

  it("lists (whole and by pages) and deletes a folder of more than one page (1,010 keys)", {
    timeout: 120_000,
  }, async () => {
    const keys = Array.from({ length: 1010 }, (_, i) => `${store.key(P("d/many"))}/f${String(i).padStart(4, "0")}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((Key) => client.send(new PutObjectCommand({ Bucket: root.bucket, Key, Body: "x" }))),
      );
    }
    const listed = await store.list(P("d/many"));
    expect(listed).toHaveLength(1010);
    expect(listed?.[1009]).toEqual({ name: "f1009", isDir: false, size: 1 });
    // Pages from S3's continuation token: one S3 request each, every entry once.
    const first = await store.listPage(P("d/many"), 1000);
    expect(first?.entries).toHaveLength(1000);
    expect(first?.next).toEqual(expect.any(String));
    const second = await store.listPage(P("d/many"), 1000, first?.next);
    expect(second?.entries.map((e) => e.name)).toEqual(listed?.slice(1000).map((e) => e.name));
    expect(second?.next).toBeUndefined();
    const small = await store.listPage(P("d/many"), 7);
    expect(small?.entries.map((e) => e.name)).toEqual(listed?.slice(0, 7).map((e) => e.name));
    expect(await store.listPage(P("d/nothing"), 10)).toBeUndefined();
    await store.delete(P("d/many"));
    expect(await store.list(P("d/many"))).toBeUndefined();
  });

  it("presigns a PUT and a GET: bytes sent to one come back identical from the other; tampered and expired URLs are refused", async () => {
    const bytes = randomBytes(100_000);
    const upload = await store.presignUpload(P("d/presigned/w.bin"), { expiresIn: 60 });
    expect(new URL(upload).searchParams.get("X-Amz-Expires")).toBe("60");
    expect((await fetch(upload, { method: "PUT", body: bytes })).status).toBe(200);
    expect(await store.stat(P("d/presigned/w.bin"))).toMatchObject({ isDir: false, size: bytes.length });
    const download = await store.presignDownload(P("d/presigned/w.bin"), { expiresIn: 60 });
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    // Another key, another method, or a URL signed two hours ago for one hour: 403 from the store.
    expect((await fetch(upload.replace("w.bin", "x.bin"), { method: "PUT", body: "x" })).status).toBe(403);
    expect((await fetch(download, { method: "PUT", body: "x" })).status).toBe(403);
    const expired = { expiresIn: 3600, signingDate: new Date(Date.now() - 2 * 3600 * 1000) };
    expect((await fetch(await store.presignDownload(P("d/presigned/w.bin"), expired))).status).toBe(403);
    const late = await fetch(await store.presignUpload(P("d/presigned/late.bin"), expired), {
      method: "PUT",
      body: "x",
    });
    expect(late.status).toBe(403);
    expect(await store.stat(P("d/presigned/late.bin"))).toBeUndefined();
    expect((await buffer(await store.read(P("d/presigned/w.bin")))).equals(bytes)).toBe(true);

    // As a write: S3 has no folders, so a directory's name and a path below a file are keys like any other.
    await expect(store.presignUpload(P("d/presigned"), { expiresIn: 60 })).resolves.toContain("presigned");
    await expect(store.presignUpload(P("d/presigned/w.bin/y"), { expiresIn: 60 })).resolves.toContain("w.bin");
  });

  it("aborts the multipart uploads below its prefix started before a time, and no others", async () => {
    const sweeping = new S3Store(client, { bucket: root.bucket, prefix: `${root.prefix}/sweep-${randomUUID()}` });
    const neighbour = new S3Store(client, { bucket: root.bucket, prefix: `${sweeping.location.prefix}-next` });
    const start = (s: S3Store, p: string) =>
      client.send(new CreateMultipartUploadCommand({ Bucket: root.bucket, Key: s.key(P(p)) }));
    const pending = async (s: S3Store) =>
      (
        (await client.send(new ListMultipartUploadsCommand({ Bucket: root.bucket, Prefix: `${s.location.prefix}/` })))
          .Uploads ?? []
      ).map((u) => u.Key);
    try {
      await start(sweeping, "1/run/artifacts/a.bin");
      await start(sweeping, "1/run/artifacts/b.bin");
      await start(neighbour, "c.bin");
      // Started within the last hour: younger than the age, they stay.
      expect(await sweeping.abortMultipartUploadsStartedBefore(new Date(Date.now() - 3600 * 1000))).toBe(0);
      expect(await pending(sweeping)).toHaveLength(2);
      // Age 0: everything started until now goes, below this prefix only.
      expect(await sweeping.abortMultipartUploadsStartedBefore(new Date())).toBe(2);
      expect(await pending(sweeping)).toEqual([]);
      expect(await pending(neighbour)).toEqual([neighbour.key(P("c.bin"))]);
      expect(await sweeping.abortMultipartUploadsStartedBefore(new Date())).toBe(0);
    } finally {
      await neighbour.abortMultipartUploadsStartedBefore(new Date());
    }
  });

  it("answers 503 when the store cannot be reached", async () => {
    const offline = makeS3Client({ forcePathStyle: true, endpoint: "http://127.0.0.1:9" });
    const unreachable = new S3Store(offline, root);
    await expect(unreachable.list(P("x"))).rejects.toMatchObject({ code: "TEMPORARILY_UNAVAILABLE" });
    offline.destroy();
  });
});
