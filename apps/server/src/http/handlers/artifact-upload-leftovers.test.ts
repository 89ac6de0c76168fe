import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import {
  artifactStoreConfig,
  rawRequest,
  startTestServer,
  storedArtifacts,
  testDatabases,
  testS3Client,
  useTestServer,
} from "@tracker/testing";

/**
 * Uploads leave nothing behind (issue 28, item 4 and 5): a temporary file lives in the upload folder
 * beside the artifacts destination, where no client path leads, and is removed on every way an
 * upload can end early; names are refused as MLflow's server refuses them; a dangling symbolic
 * link on the way answers 400, not 500.
 */

const A = "/api/2.0/mlflow-artifacts/artifacts";

/** Every file below a folder (relative paths), the embedded database's files left out. */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => !f.startsWith("pgdata") && fs.lstatSync(path.join(dir, f), { throwIfNoEntry: false })?.isFile())
    .sort();
}

/** Polls `check` until it holds: a state the server reaches by itself (the test's timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Waits for the server (in this process) to be done with `count` more requests than `before`: it has
 * received them, and every request is over, the handlers of cut ones included (their cleanup).
 */
async function requestsOver(server: { activity(): { received: number }; idle(): Promise<void> }, count: number) {
  const before = server.activity().received;
  return async () => {
    await until(() => server.activity().received >= before + count);
    await server.idle();
  };
}

/** Sends the head of a PUT with `Content-Length: announced` and `sent` bytes; `cut()` resets the connection. */
function heldUpload(port: number, target: string, announced: number, sent: number): { cut(): Promise<void> } {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write(`PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${announced}\r\n\r\n`);
  const written = new Promise<void>((resolve) => socket.write(Buffer.alloc(sent, 0x61), () => resolve()));
  return {
    async cut() {
      await written;
      socket.destroy();
      await closed;
    },
  };
}

/** Sends the head of a PUT with `Content-Length: announced` and `sent` bytes, then resets the connection. */
async function cutUpload(port: number, target: string, announced: number, sent: number, holdMs = 0): Promise<void> {
  const upload = heldUpload(port, target, announced, sent);
  if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
  await upload.cut();
}

describe.each(testDatabases())("artifact uploads leave nothing behind (%s)", (kind) => {
  const suite = useTestServer(kind);
  let base: string;
  /** The cut uploads' own run: a late one (mkdir of its folder) must not show in the other cases' listings. */
  let cutBase: string;
  beforeAll(async () => {
    const exp = (await suite.api.post<{ experiment_id: string }>("experiments/create", { name: "leftovers" })).body
      .experiment_id;
    const newRun = async () =>
      (await suite.api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: exp })).body.run.info
        .run_id;
    base = `${exp}/${await newRun()}/artifacts`;
    cutBase = `${exp}/${await newRun()}/artifacts`;
  });
  const uploadsOf = () =>
    fs.readdirSync(suite.server.dataDir).filter((name) => name !== "pgdata" && name !== "artifacts");

  it("removes the temporary file of a body cut short (Content-Length 1000, 3 bytes, close): one by one and in a burst", async () => {
    const over = await requestsOver(suite.server, 10 + 200 + 20);
    for (let i = 0; i < 10; i++) await cutUpload(suite.server.port, `${A}/${cutBase}/cut/one-${i}.bin`, 1000, 3);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        cutUpload(suite.server.port, `${A}/${cutBase}/cut/burst-${i}.bin`, 1000, 3),
      ),
    );
    // A cut while the handler already streams to disk, too.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cutUpload(suite.server.port, `${A}/${cutBase}/cut/late-${i}.bin`, 1 << 20, 200_000, 50),
      ),
    );
    await over();
    expect(filesBelow(suite.server.dataDir), JSON.stringify(filesBelow(suite.server.dataDir))).toEqual([]);
    expect((await fetch(`${suite.url}${A}/${cutBase}/cut/one-0.bin`)).status).toBe(404);
    // The server still answers, its in-flight requests released.
    expect((await fetch(`${suite.url}${A}/${cutBase}/cut/ok.txt`, { method: "PUT", body: "ok" })).status).toBe(200);
    fs.rmSync(path.join(suite.server.dataDir, "artifacts", cutBase, "cut"), { recursive: true });
  });

  it("keeps temporary files outside the destination: a client can neither read nor name them, and `.tracker-upload-*` is a name like any other", async () => {
    // Held open until the test has seen its temporary file (a cut after a fixed time could come first).
    const held = heldUpload(suite.server.port, `${A}/${base}/held.bin`, 1 << 20, 1000);
    await until(() => uploadsOf().some((dir) => fs.readdirSync(path.join(suite.server.dataDir, dir)).length > 0));
    const [uploadDir] = uploadsOf();
    expect(uploadDir, "an upload folder beside the destination").toBeDefined();
    const [temp] = fs.readdirSync(path.join(suite.server.dataDir, uploadDir!));
    expect(temp).toBeDefined();
    expect(filesBelow(path.join(suite.server.dataDir, "artifacts"))).toEqual([]);
    for (const p of [`../${uploadDir}/${temp}`, `%2E%2E/${uploadDir}/${temp}`]) {
      expect((await rawRequest(suite.server.port, "GET", `${A}/${p}`))?.status, p).toBe(400);
    }
    // Received already (its handler made the file): over once its handler has removed it.
    await held.cut();
    await suite.server.idle();
    const evil = `${base}/.tracker-upload-evil`;
    expect((await fetch(`${suite.url}${A}/${evil}`, { method: "PUT", body: "mine" })).status).toBe(200);
    expect(await (await fetch(`${suite.url}${A}/${evil}`)).text()).toBe("mine");
    expect(await (await fetch(`${suite.url}${A}?path=${encodeURIComponent(base)}`)).json()).toEqual({
      files: [{ path: ".tracker-upload-evil", is_dir: false, file_size: 4 }],
    });
    await suite.server.idle();
    expect(uploadsOf().flatMap((dir) => fs.readdirSync(path.join(suite.server.dataDir, dir)))).toEqual([]);
  });

  it("refuses names as MLflow's server does (INVALID_PARAMETER_VALUE): `#`, `..` however often encoded", async () => {
    for (const p of [`${base}/a%23b.txt`, `${base}/%25252E%25252E/x.txt`, `${base}/x/%2525252e%2525252e/y`]) {
      for (const method of ["GET", "PUT"]) {
        const answer = await rawRequest(
          suite.server.port,
          method,
          `${A}/${p}`,
          method === "PUT" ? { "Content-Length": 1 } : {},
          method === "PUT" ? "x" : "",
        );
        expect(answer?.status, `${method} ${p}: ${answer?.text}`).toBe(400);
        expect(JSON.parse(answer!.text)).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
      }
    }
    expect(filesBelow(path.join(suite.server.dataDir, "artifacts"))).toEqual([path.join(base, ".tracker-upload-evil")]);
  });

  it("answers 400 to an upload below a dangling symbolic link to a folder, and creates nothing through it", async () => {
    const dir = path.join(suite.server.dataDir, "artifacts", base);
    const target = path.join(suite.server.dataDir, "gone", "dir");
    fs.symlinkSync(target, path.join(dir, "dangling"));
    for (const p of [`${base}/dangling/x.txt`, `${base}/dangling/deeper/x.txt`]) {
      const answer = await rawRequest(suite.server.port, "PUT", `${A}/${p}`, { "Content-Length": 2 }, "hi");
      expect(answer?.status, `${p}: ${answer?.text}`).toBe(400);
      expect(JSON.parse(answer!.text)).toMatchObject({
        error_code: "INVALID_PARAMETER_VALUE",
        message: expect.stringContaining("symbolic link"),
      });
    }
    expect(fs.existsSync(path.join(suite.server.dataDir, "gone"))).toBe(false);
    fs.unlinkSync(path.join(dir, "dangling"));
  });
});

/** The multipart uploads left unfinished below an s3:// destination. */
async function unfinishedUploads(destination: string) {
  const [bucket, ...prefix] = destination.slice("s3://".length).split("/");
  const listed = await testS3Client().send(
    new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `${prefix.join("/")}/` }),
  );
  return listed.Uploads ?? [];
}

/** Waits (at most `ms`) until no multipart upload is left unfinished below the destination. */
async function untilNoneUnfinished(destination: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await unfinishedUploads(destination)).length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
}

describe.runIf(process.env.TEST_S3_URL)("cut uploads to S3 leave no object and no unfinished multipart upload", () => {
  // (vitest collects a skipped suite too: without TEST_S3_URL there is no S3 config to make)
  const suite = useTestServer("pglite", process.env.TEST_S3_URL ? artifactStoreConfig("s3") : {});

  it("small bodies cut in a burst, and large ones cut after several parts went out", { timeout: 180_000 }, async () => {
    const dest = suite.server.config.artifactsDestination;
    const stored = storedArtifacts(dest);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => cutUpload(suite.server.port, `${A}/1/cut/small-${i}.bin`, 1000, 3)),
    );
    // 20 MiB sent of 64 MiB announced: several parts are uploaded before the cut.
    await Promise.all(
      Array.from({ length: 2 }, (_, i) =>
        cutUpload(suite.server.port, `${A}/1/cut/large-${i}.bin`, 64 << 20, 20 << 20, 500),
      ),
    );
    const unfinished = () => unfinishedUploads(dest);
    await untilNoneUnfinished(dest, 60_000);
    expect(await unfinished()).toEqual([]);
    expect(await stored.files("")).toEqual([]);
    expect((await fetch(`${suite.url}${A}/1/cut/large-0.bin`)).status).toBe(404);
  });
});

describe.runIf(process.env.TEST_S3_URL).each(testDatabases())("abandoned multipart uploads in S3 (%s)", (kind) => {
  it("are aborted at start-up when older than --s3-abandoned-upload-age (0: never)", async () => {
    const config = artifactStoreConfig("s3");
    const dest = config.artifactsDestination!;
    const [bucket, ...prefix] = dest.slice("s3://".length).split("/");
    const abandon = (name: string) =>
      testS3Client().send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: [...prefix, "1", "run", "artifacts", name].join("/") }),
      );
    await abandon("crashed.bin");
    // Never swept: the upload stays (the sweep would start at once, before the server answers).
    const never = await startTestServer(kind, { ...config, s3AbandonedUploadAgeMs: 0 });
    await never.dispose();
    expect((await unfinishedUploads(dest)).map((u) => u.Key)).toEqual([
      [...prefix, "1/run/artifacts/crashed.bin"].join("/"),
    ]);
    // Older than 1 ms: aborted by the sweep at start-up.
    const server = await startTestServer(kind, { ...config, s3AbandonedUploadAgeMs: 1 });
    try {
      await untilNoneUnfinished(dest, 30_000);
      expect(await unfinishedUploads(dest)).toEqual([]);
    } finally {
      await server.dispose();
    }
  });
});
