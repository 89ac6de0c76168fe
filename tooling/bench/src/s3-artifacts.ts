import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { TrackerClient } from "@tracker-ml/client";
import { ARTIFACT_TARGETS, makeFile, median, putFile, type SectionMarkers, type Transfer } from "./artifacts.js";
import { REPO_ROOT } from "./paths.js";
import type { TargetCheck } from "./report.js";
import { sampleRss, startServer, type RssReport, type ServerProcess } from "./server-process.js";

/**
 * The S3 artifact store's benchmark (issue 30): tracker with its artifacts destination in an S3 bucket
 * against the same S3 server used directly through the AWS SDK, in one run: one large file up
 * (a streamed PUT through tracker vs @aws-sdk/lib-storage's Upload) and down (GET through tracker vs
 * GetObject), with the server's RSS during each; many small files uploaded in parallel; one folder of
 * many files listed (tracker's artifacts/list, every page, vs a paginated ListObjectsV2). The S3 server
 * is the one TEST_S3_URL / AWS_ENDPOINT_URL name, else a throwaway Ceph radosgw (scripts/s3-throwaway.sh),
 * else the section is skipped with the reason.
 */

export const S3_TARGETS = {
  /** Through tracker at least this fraction of the direct rate (large upload, large download, small files). */
  throughputFraction: 0.5,
  /** Server RSS growth during one large transfer. */
  rssGrowthBytes: ARTIFACT_TARGETS.rssGrowthBytes,
  /** Listing a folder through artifacts/list at most this many times a direct paginated ListObjectsV2. */
  listingRatio: 2,
};

export const S3_MARKERS: SectionMarkers = { start: "<!-- s3-bench:start -->", end: "<!-- s3-bench:end -->" };

const MIB = 1024 * 1024;

export interface S3Sizes {
  fileBytes: number;
  smallFiles: number;
  smallFileBytes: number;
  parallel: number;
  smallRounds: number;
  listingEntries: number;
  listingRounds: number;
}

export const S3_FULL: S3Sizes = {
  fileBytes: 1024 * MIB,
  smallFiles: 100,
  smallFileBytes: 10 * 1024,
  parallel: 16,
  smallRounds: 5,
  listingEntries: 10_000,
  listingRounds: 5,
};

/** CI's smoke run (`--quick`): every step, small sizes; the listing still spans two pages. */
export const S3_QUICK: S3Sizes = {
  fileBytes: 16 * MIB,
  smallFiles: 100,
  smallFileBytes: 10 * 1024,
  parallel: 16,
  smallRounds: 2,
  listingEntries: 1_500,
  listingRounds: 2,
};

/** Where the S3 server comes from. */
export type S3Source =
  | { kind: "given"; url: string; createBucket: boolean }
  | { kind: "throwaway" }
  | { kind: "none"; reason: string };

/**
 * TEST_S3_URL (`s3://bucket/prefix`, endpoint and credentials in the AWS variables) first; then
 * AWS_ENDPOINT_URL alone (the bucket `tracker-bench`, created when missing); then a throwaway radosgw
 * when Ceph is installed; else none, with the reason.
 */
export function chooseS3Source(env: NodeJS.ProcessEnv, cephInstalled: boolean): S3Source {
  const url = env.TEST_S3_URL;
  if (url) {
    if (!/^s3:\/\/[^/]+/.test(url))
      return { kind: "none", reason: `TEST_S3_URL is not an s3://bucket/prefix URI: ${url}` };
    return { kind: "given", url, createBucket: false };
  }
  if (env.AWS_ENDPOINT_URL) return { kind: "given", url: "s3://tracker-bench", createBucket: true };
  if (cephInstalled) return { kind: "throwaway" };
  return {
    kind: "none",
    reason:
      "no S3 server: TEST_S3_URL and AWS_ENDPOINT_URL are unset and Ceph's radosgw is not installed " +
      "(as root: `. scripts/s3-throwaway.sh && s3_throwaway_install`)",
  };
}

export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const [bucket = "", ...rest] = url.replace(/^s3:\/\//, "").split("/");
  return { bucket, prefix: rest.filter(Boolean).join("/") };
}

const THROWAWAY_SCRIPT = path.join(REPO_ROOT, "scripts", "s3-throwaway.sh");
const THROWAWAY_VARS = ["S3_TMP", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"];

function cephInstalled(): boolean {
  return (
    spawnSync("bash", ["-c", `. "${THROWAWAY_SCRIPT}" && s3_throwaway_installed`], { stdio: "ignore" }).status === 0
  );
}

/** Starts scripts/s3-throwaway.sh's radosgw; its daemons outlive the shell, stopped by pid files through `stop`. */
function startThrowaway(): { env: Record<string, string>; described: string; stop(): void } {
  const print = THROWAWAY_VARS.map((v) => `printf '%s=%s\\n' ${v} "$${v}"`).join("; ");
  const started = spawnSync("bash", ["-c", `. "${THROWAWAY_SCRIPT}" && s3_throwaway_start && { ${print}; }`], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 300_000,
  });
  if (started.status !== 0) throw new Error(`the throwaway S3 server did not start:\n${started.stderr}`);
  const env: Record<string, string> = {};
  for (const line of started.stdout.trim().split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  const version = /throwaway S3 \(([^)]*)\)/.exec(started.stderr)?.[1] ?? "Ceph radosgw";
  return {
    env,
    described: `${version}, a throwaway single-node cluster (scripts/s3-throwaway.sh, memstore OSD)`,
    stop() {
      spawnSync("bash", ["-c", `. "${THROWAWAY_SCRIPT}" && s3_throwaway_stop`], {
        env: { ...process.env, S3_TMP: env.S3_TMP },
        stdio: "ignore",
        timeout: 120_000,
      });
    },
  };
}

/** An S3 client as the server makes one (path-style; checksums only when required, which radosgw needs). */
function s3Client(env: NodeJS.ProcessEnv): S3Client {
  const key = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  return new S3Client({
    forcePathStyle: true,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    ...(env.AWS_ENDPOINT_URL ? { endpoint: env.AWS_ENDPOINT_URL } : {}),
    ...(key && secret
      ? {
          credentials: {
            accessKeyId: key,
            secretAccessKey: secret,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

export interface TrackerVsDirect<T> {
  tracker: T;
  direct: T;
}

export interface S3BenchResult {
  /** The S3 server, in words. */
  store: string;
  sizes: S3Sizes;
  upload: TrackerVsDirect<Transfer>;
  download: TrackerVsDirect<Transfer>;
  /** Files per second, per round. */
  small: TrackerVsDirect<number[]>;
  /** Seconds to list the whole folder, per round. */
  listing: TrackerVsDirect<number[]>;
  loadAverageStart: number[];
  loadAverage: number[];
  startedAt: Date;
}

export interface S3BenchSkipped {
  skipped: string;
}

export const s3BenchSkipped = (r: S3BenchResult | S3BenchSkipped): r is S3BenchSkipped => "skipped" in r;

export interface S3BenchOptions {
  quick: boolean;
  log: (line: string) => void;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** Runs `work` on every item, `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Reads a body to its end; returns its length. Both sides of a download pay the same. */
async function drain(body: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += (chunk as Buffer).length;
  return bytes;
}

function getBody(url: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode === 200) return resolve(res);
        res.resume();
        reject(new Error(`GET ${url} answered ${res.statusCode}`));
      })
      .on("error", reject);
  });
}

/** Writes `stamp` and the MiB's number at the start of every MiB of the file: each upload carries other bytes. */
async function stampFile(file: string, bytes: number, stamp: string): Promise<void> {
  const handle = await fs.open(file, "r+");
  try {
    for (let at = 0; at < bytes; at += MIB) {
      const mark = Buffer.from(`${stamp}:${at / MIB};`);
      await handle.write(mark, 0, Math.min(mark.length, bytes - at), at);
    }
  } finally {
    await handle.close();
  }
}

async function writeSmallFiles(dir: string, files: number, bytes: number): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const names = Array.from({ length: files }, (_, i) => `f${String(i).padStart(3, "0")}.bin`);
  for (const name of names) await fs.writeFile(path.join(dir, name), randomBytes(bytes));
  return names;
}

async function deletePrefix(client: S3Client, bucket: string, prefix: string): Promise<void> {
  let token: string | undefined;
  do {
    const page: ListObjectsV2CommandOutput = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length > 0)
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

export async function runS3Bench(options: S3BenchOptions): Promise<S3BenchResult | S3BenchSkipped> {
  const source = chooseS3Source(process.env, cephInstalled());
  if (source.kind === "none") {
    options.log(`S3 artifact store: skipped (${source.reason})`);
    return { skipped: source.reason };
  }
  let throwaway: ReturnType<typeof startThrowaway> | undefined;
  try {
    if (source.kind === "throwaway") {
      options.log("S3 artifact store: starting a throwaway Ceph radosgw (scripts/s3-throwaway.sh)");
      throwaway = startThrowaway();
    }
    const url = source.kind === "given" ? source.url : "s3://tracker-bench";
    const endpoint = throwaway?.env.AWS_ENDPOINT_URL ?? process.env.AWS_ENDPOINT_URL;
    const store = throwaway?.described ?? `the S3 server at ${endpoint ?? "AWS"} (${url})`;
    return await measure(options, throwaway?.env ?? {}, url, source.kind === "throwaway" || source.createBucket, store);
  } finally {
    throwaway?.stop();
  }
}

/** `s3Env`: the S3 server's AWS variables when they are not in this process's environment (a throwaway server's). */
async function measure(
  options: S3BenchOptions,
  s3Env: Record<string, string>,
  url: string,
  createBucket: boolean,
  store: string,
): Promise<S3BenchResult> {
  const { log } = options;
  const sizes = options.quick ? S3_QUICK : S3_FULL;
  const startedAt = new Date();
  const loadAverageStart = os.loadavg();
  const client = s3Client({ ...process.env, ...s3Env });
  const { bucket, prefix: basePrefix } = parseS3Url(url);
  const prefix = [basePrefix, `bench-${randomUUID()}`].filter(Boolean).join("/");
  if (createBucket) {
    await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((err: { name?: string }) => {
      if (err.name !== "BucketAlreadyOwnedByYou" && err.name !== "BucketAlreadyExists") throw err;
    });
  }
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "tracker-bench-s3-"));
  let server: ServerProcess | undefined;
  try {
    // The server's environment is this process's (see startServer) with these on top.
    server = await startServer(path.join(work, "server-db"), 1, [], {
      ...s3Env,
      TRACKER_ARTIFACTS_DESTINATION: `s3://${bucket}/${prefix}/tracker`,
      TRACKER_S3_PATH_STYLE: "1",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    });
    log(
      `S3 artifact store: ${store}; tracker server at ${server.url} with its artifacts in s3://${bucket}/${prefix}/tracker`,
    );
    const tracker = new TrackerClient({ baseUrl: server.url, retry: false });
    const experimentId = await tracker.createExperiment("bench-s3-artifacts");
    const runId = (await tracker.createRun(experimentId)).info.run_id;
    const root = await tracker.artifactServicePath(runId);
    const trackerKey = (p: string) => `${prefix}/tracker/${root}/${p}`;
    const directKey = (p: string) => `${prefix}/direct/${p}`;
    const base = `${server.url}/api/2.0/mlflow-artifacts/artifacts/${root}`;

    // One large file: through tracker, then directly, each with its own bytes.
    const source = path.join(work, "large.bin");
    log(`  writing a ${sizes.fileBytes / MIB} MiB file`);
    await makeFile(source, sizes.fileBytes);
    await stampFile(source, sizes.fileBytes, "tracker");
    let sampler = sampleRss(server.pids());
    const up = await timed(() => putFile(`${base}/large.bin`, source, sizes.fileBytes));
    const upRss = sampler.stop();
    await stampFile(source, sizes.fileBytes, "direct");
    const upDirect = await timed(() =>
      new Upload({
        client,
        params: { Bucket: bucket, Key: directKey("large.bin"), Body: createReadStream(source) },
      }).done(),
    );
    await fs.rm(source);
    const rate = (seconds: number, rss?: RssReport): Transfer => ({
      seconds,
      bytesPerSecond: sizes.fileBytes / seconds,
      ...(rss ? { rss } : {}),
    });
    const upload = { tracker: rate(up, upRss), direct: rate(upDirect) };
    log(`  upload: tracker ${fmtTransfer(upload.tracker)}, direct ${fmtTransfer(upload.direct)}`);

    let got = 0;
    sampler = sampleRss(server.pids());
    const down = await timed(async () => {
      got = await drain(await getBody(`${base}/large.bin`));
    });
    const downRss = sampler.stop();
    if (got !== sizes.fileBytes) throw new Error(`the download through tracker had ${got} bytes`);
    const downDirect = await timed(async () => {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: directKey("large.bin") }));
      got = await drain(out.Body as Readable);
    });
    if (got !== sizes.fileBytes) throw new Error(`the direct download had ${got} bytes`);
    const download = { tracker: rate(down, downRss), direct: rate(downDirect) };
    log(`  download: tracker ${fmtTransfer(download.tracker)}, direct ${fmtTransfer(download.direct)}`);
    // memstore keeps objects in the OSD's memory: the large ones go before the rest.
    await deletePrefix(client, bucket, `${prefix}/`);

    // Small files in parallel: fresh random files each round and side; the sides take turns going first.
    // Round -1 warms both sides up (connections, JIT) and is not counted, as the server bench's warm-up.
    const small: TrackerVsDirect<number[]> = { tracker: [], direct: [] };
    for (let round = -1; round < sizes.smallRounds; round++) {
      const viaTracker = path.join(work, `small-tracker-${round}`);
      const viaDirect = path.join(work, `small-direct-${round}`);
      await writeSmallFiles(viaTracker, sizes.smallFiles, sizes.smallFileBytes);
      const names = await writeSmallFiles(viaDirect, sizes.smallFiles, sizes.smallFileBytes);
      const sides = {
        tracker: () => tracker.uploadArtifacts(runId, viaTracker, `small-${round}`, { parallel: sizes.parallel }),
        direct: () =>
          inParallel(names, sizes.parallel, async (name) => {
            const body = await fs.readFile(path.join(viaDirect, name));
            await client.send(
              new PutObjectCommand({ Bucket: bucket, Key: directKey(`small-${round}/${name}`), Body: body }),
            );
          }),
      };
      for (const side of round % 2 ? (["direct", "tracker"] as const) : (["tracker", "direct"] as const)) {
        const filesPerSecond = sizes.smallFiles / (await timed(sides[side]));
        if (round >= 0) small[side].push(filesPerSecond);
      }
    }
    log(
      `  ${sizes.smallFiles} files of ${sizes.smallFileBytes / 1024} KiB, ${sizes.parallel} in parallel (files/s): tracker ${fmtRounds(small.tracker)}, direct ${fmtRounds(small.direct)}`,
    );

    // A folder of many files, stored directly (distinct bodies), listed whole both ways.
    log(`  storing ${sizes.listingEntries.toLocaleString("en-US")} files for the listing`);
    const names = Array.from({ length: sizes.listingEntries }, (_, i) => `f${String(i).padStart(6, "0")}.txt`);
    await inParallel(names, 32, async (name) => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: trackerKey(`many/${name}`), Body: name }));
    });
    const listing: TrackerVsDirect<number[]> = { tracker: [], direct: [] };
    const listed = { tracker: 0, direct: 0 };
    const sides = {
      tracker: async () => {
        listed.tracker = (await tracker.listArtifacts(runId, "many")).length;
      },
      direct: async () => {
        let token: string | undefined;
        listed.direct = 0;
        do {
          const page: ListObjectsV2CommandOutput = await client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${trackerKey("many")}/`,
              Delimiter: "/",
              ContinuationToken: token,
            }),
          );
          listed.direct += (page.Contents?.length ?? 0) + (page.CommonPrefixes?.length ?? 0);
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      },
    };
    for (let round = 0; round < sizes.listingRounds; round++) {
      for (const side of round % 2 ? (["direct", "tracker"] as const) : (["tracker", "direct"] as const))
        listing[side].push(await timed(sides[side]));
      if (listed.tracker !== sizes.listingEntries || listed.direct !== sizes.listingEntries)
        throw new Error(
          `listed ${listed.tracker} through tracker and ${listed.direct} directly, not ${sizes.listingEntries}`,
        );
    }
    log(
      `  listing ${sizes.listingEntries.toLocaleString("en-US")} files (ms): tracker ${listing.tracker.map(msText).join(", ")}, direct ${listing.direct.map(msText).join(", ")}`,
    );
    return {
      store,
      sizes,
      upload,
      download,
      small,
      listing,
      loadAverageStart,
      loadAverage: os.loadavg(),
      startedAt,
    };
  } finally {
    await server?.stop();
    await deletePrefix(client, bucket, `${prefix}/`).catch(() => undefined);
    client.destroy();
    await fs.rm(work, { recursive: true, force: true });
  }
}

const mibps = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
const growth = (r?: RssReport) => (r ? r.peakBytes - r.startBytes : 0);
const msText = (seconds: number) => (seconds * 1000).toFixed(0);
const fmtRounds = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
const fmtRss = (r?: RssReport) =>
  r ? `${(r.startBytes / MIB).toFixed(0)} -> ${(r.peakBytes / MIB).toFixed(0)} MiB` : "-";
const fmtTransfer = (t: Transfer) =>
  `${t.seconds.toFixed(2)} s, ${mibps(t.bytesPerSecond)}${t.rss ? `, server RSS ${fmtRss(t.rss)}` : ""}`;
const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

export function s3Targets(r: S3BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const size = `${(r.sizes.fileBytes / MIB).toFixed(0)} MiB`;
  const least = percent(S3_TARGETS.throughputFraction);
  for (const [name, t] of [
    ["upload", r.upload],
    ["download", r.download],
  ] as const) {
    const fraction = t.tracker.bytesPerSecond / t.direct.bytesPerSecond;
    checks.push({
      target: `S3 ${name} of ${size} through tracker >= ${least} of the direct rate`,
      measured: `${mibps(t.tracker.bytesPerSecond)} vs ${mibps(t.direct.bytesPerSecond)} = ${percent(fraction)}`,
      met: fraction >= S3_TARGETS.throughputFraction,
    });
    checks.push({
      target: `S3 ${name}: server RSS growth < ${S3_TARGETS.rssGrowthBytes / MIB} MiB`,
      measured: `+${(growth(t.tracker.rss) / MIB).toFixed(1)} MiB`,
      met: growth(t.tracker.rss) < S3_TARGETS.rssGrowthBytes,
    });
  }
  const smallFraction = median(r.small.tracker) / median(r.small.direct);
  checks.push({
    target: `S3: ${r.sizes.smallFiles} small files uploaded in parallel through tracker >= ${least} of the direct rate`,
    measured: `median ${median(r.small.tracker).toFixed(0)} vs ${median(r.small.direct).toFixed(0)} files/s = ${percent(smallFraction)}`,
    met: smallFraction >= S3_TARGETS.throughputFraction,
  });
  const listingRatio = median(r.listing.tracker) / median(r.listing.direct);
  checks.push({
    target: `S3: listing ${r.sizes.listingEntries.toLocaleString("en-US")} artifacts through artifacts/list < ${S3_TARGETS.listingRatio}x a direct paginated ListObjectsV2`,
    measured: `median ${msText(median(r.listing.tracker))} ms vs ${msText(median(r.listing.direct))} ms = ${listingRatio.toFixed(2)}x`,
    met: listingRatio < S3_TARGETS.listingRatio,
  });
  return checks;
}

/** The section of docs/benchmarks.md, between S3_MARKERS so that `pnpm bench:artifacts` can replace it alone. */
export function s3Markdown(r: S3BenchResult | S3BenchSkipped, command: string): string {
  const lines = [S3_MARKERS.start, "## S3 artifact store", ""];
  if (s3BenchSkipped(r)) {
    lines.push(`Skipped by \`${command}\`: ${r.skipped}.`, "", S3_MARKERS.end);
    return lines.join("\n");
  }
  const s = r.sizes;
  lines.push(
    `Measured by \`${command}\` on ${r.startedAt.toISOString()} against ${r.store}; load average (1, 5, 15 min) at the start ${r.loadAverageStart.map((x) => x.toFixed(2)).join(", ")}, at the end ${r.loadAverage.map((x) => x.toFixed(2)).join(", ")}.`,
    r.loadAverageStart[0]! > os.availableParallelism()
      ? "**The machine was busy at the start (1-minute load average above its core count)**, so the absolute figures are low and noisy; the ratios compare runs made back to back under the same load."
      : "The ratios compare runs made back to back in this one run, against the same S3 server and bucket.",
    "",
    "*Through tracker*: `tracker server` (on the embedded PGlite database the bench picks; not the embedded PostgreSQL default) with `--artifacts-destination s3://<bucket>/<prefix>` and",
    "`--s3-path-style`, driven over keep-alive HTTP. *Direct*: the AWS SDK (@aws-sdk/client-s3, keep-alive) on the same",
    `bucket. Large file: one ${(s.fileBytes / MIB).toFixed(0)} MiB file (a random MiB repeated, each MiB stamped per upload so`,
    "that every write carries its own bytes); through tracker a streamed `PUT` with Content-Length to the artifact service",
    "(the server streams it into an S3 multipart upload), directly `@aws-sdk/lib-storage`'s `Upload` with its defaults; the",
    "downloads read the body to its end (`GET` through tracker, `GetObject` directly). RSS: the server process's resident",
    `memory at the start of the transfer and its peak during it. Small files: ${s.smallFiles} files of ${s.smallFileBytes / 1024} KiB of fresh random`,
    `bytes per round and side, ${s.parallel} in parallel: \`TrackerClient.uploadArtifacts\` vs one \`PutObject\` per file; ${s.smallRounds} rounds after one uncounted warm-up round, the sides`,
    `taking turns going first. Listing: a folder of ${s.listingEntries.toLocaleString("en-US")} files listed whole: every page of \`artifacts/list\``,
    "(`TrackerClient.listArtifacts`, 1,000 entries a page) vs `ListObjectsV2` with the delimiter, page after page;",
    `${s.listingRounds} rounds.`,
    "",
    "| measurement | through tracker | direct | tracker / direct | server RSS start -> peak |",
    "|---|---:|---:|---:|---:|",
  );
  for (const [name, t] of [
    ["upload", r.upload],
    ["download", r.download],
  ] as const) {
    lines.push(
      `| ${name} of ${(s.fileBytes / MIB).toFixed(0)} MiB | ${t.tracker.seconds.toFixed(2)} s, ${mibps(t.tracker.bytesPerSecond)} | ${t.direct.seconds.toFixed(2)} s, ${mibps(t.direct.bytesPerSecond)} | ${percent(t.tracker.bytesPerSecond / t.direct.bytesPerSecond)} | ${fmtRss(t.tracker.rss)} |`,
    );
  }
  lines.push(
    `| ${s.smallFiles} small files, median files/s (rounds) | ${median(r.small.tracker).toFixed(0)} (${fmtRounds(r.small.tracker)}) | ${median(r.small.direct).toFixed(0)} (${fmtRounds(r.small.direct)}) | ${percent(median(r.small.tracker) / median(r.small.direct))} | - |`,
    `| listing ${s.listingEntries.toLocaleString("en-US")} files, median ms (rounds) | ${msText(median(r.listing.tracker))} (${r.listing.tracker.map(msText).join(", ")}) | ${msText(median(r.listing.direct))} (${r.listing.direct.map(msText).join(", ")}) | ${(median(r.listing.tracker) / median(r.listing.direct)).toFixed(2)}x | - |`,
    "",
    "| target | measured | met |",
    "|---|---|---|",
  );
  for (const c of s3Targets(r)) lines.push(`| ${c.target} | ${c.measured} | ${c.met ? "yes" : "**no**"} |`);
  lines.push("", S3_MARKERS.end);
  return lines.join("\n");
}
