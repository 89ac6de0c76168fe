import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { TrackerClient } from "@tracker-ml/client";
import { sampleRss, startServer, type RssReport, type ServerProcess } from "./server-process.js";
import type { TargetCheck } from "./report.js";

/**
 * The artifact service's benchmark (issue 18): upload and download of one large file through the
 * server against a plain local copy of the same file on the same disk, with the server's RSS
 * growth during each, and many small files uploaded in parallel by @tracker-ml/client.
 */

export const ARTIFACT_TARGETS = {
  /** Upload and download throughput at least this fraction of the local copy's. */
  throughputFraction: 0.5,
  /** Server RSS growth during one large transfer. */
  rssGrowthBytes: 64 * 1024 * 1024,
  /** Small files uploaded in parallel by the client, per second. */
  smallFilesPerSecond: 500,
};

export interface Transfer {
  seconds: number;
  bytesPerSecond: number;
  rss?: RssReport;
}

export interface ArtifactBenchResult {
  fileBytes: number;
  copy: Transfer;
  upload: Transfer;
  download: Transfer;
  small: { files: number; fileBytes: number; parallel: number; rounds: number[]; medianFilesPerSecond: number };
  loadAverageStart: number[];
  loadAverage: number[];
  startedAt: Date;
}

export interface ArtifactBenchOptions {
  quick: boolean;
  log: (line: string) => void;
}

const MIB = 1024 * 1024;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/** A file of `bytes` made of one random MiB repeated (cheap to make, not compressible within a MiB). */
export async function makeFile(file: string, bytes: number): Promise<void> {
  const block = Buffer.alloc(MIB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += MIB) {
    if (!out.write(written + MIB <= bytes ? block : block.subarray(0, bytes - written)))
      await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

export function putFile(url: string, file: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "PUT", headers: { "Content-Length": bytes } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT answered ${res.statusCode}`))));
    });
    req.on("error", reject);
    createReadStream(file).on("error", reject).pipe(req);
  });
}

function getFile(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET answered ${res.statusCode}`));
          res.resume();
          return;
        }
        pipeline(res, createWriteStream(file)).then(resolve, reject);
      })
      .on("error", reject);
  });
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runArtifactBench(options: ArtifactBenchOptions): Promise<ArtifactBenchResult> {
  const { log } = options;
  const startedAt = new Date();
  const loadAverageStart = os.loadavg();
  const fileBytes = options.quick ? 16 * MIB : 2048 * MIB;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "tracker-bench-artifacts-"));
  let server: ServerProcess | undefined;
  try {
    // The embedded database; artifacts below the server's data dir in the same temporary folder (same disk).
    server = await startServer(path.join(work, "server-db"), 1);
    const client = new TrackerClient({ baseUrl: server.url, retry: false });
    const experimentId = await client.createExperiment("bench-artifacts");
    const runId = (await client.createRun(experimentId)).info.run_id;
    const root = await client.artifactServicePath(runId);
    const base = `${server.url}/api/2.0/mlflow-artifacts/artifacts/${root}`;

    log(`artifacts: writing a ${(fileBytes / MIB).toFixed(0)} MiB file`);
    const source = path.join(work, "source.bin");
    await makeFile(source, fileBytes);

    const copyTarget = path.join(work, "copy.bin");
    const copy = await timed(() => pipeline(createReadStream(source), createWriteStream(copyTarget)));
    await fs.rm(copyTarget);
    log(`  local copy (read + write streams): ${copy.seconds.toFixed(2)} s`);

    let sampler = sampleRss(server.pids());
    const upload = await timed(() => putFile(`${base}/large.bin`, source, fileBytes));
    const uploadRss = sampler.stop();
    log(
      `  upload: ${upload.seconds.toFixed(2)} s; server RSS ${(uploadRss.startBytes / MIB).toFixed(0)} -> peak ${(uploadRss.peakBytes / MIB).toFixed(0)} MiB`,
    );

    const downloaded = path.join(work, "downloaded.bin");
    sampler = sampleRss(server.pids());
    const download = await timed(() => getFile(`${base}/large.bin`, downloaded));
    const downloadRss = sampler.stop();
    if ((await fs.stat(downloaded)).size !== fileBytes) throw new Error("the downloaded file has the wrong size");
    await fs.rm(downloaded);
    log(
      `  download: ${download.seconds.toFixed(2)} s; server RSS ${(downloadRss.startBytes / MIB).toFixed(0)} -> peak ${(downloadRss.peakBytes / MIB).toFixed(0)} MiB`,
    );
    await fs.rm(source);

    const files = 100;
    const smallBytes = 10 * 1024;
    const parallel = 16;
    const smallDir = path.join(work, "small");
    await fs.mkdir(smallDir);
    for (let i = 0; i < files; i++)
      await fs.writeFile(path.join(smallDir, `f${String(i).padStart(3, "0")}.bin`), Buffer.alloc(smallBytes, i));
    const rounds: number[] = [];
    for (let round = 0; round < (options.quick ? 2 : 5); round++) {
      const { seconds } = await timed(() => client.uploadArtifacts(runId, smallDir, `small-${round}`, { parallel }));
      rounds.push(files / seconds);
    }
    log(`  ${files} files of 10 KiB, ${parallel} in parallel: ${rounds.map((r) => r.toFixed(0)).join(", ")} files/s`);

    const rate = (t: { seconds: number }) => fileBytes / t.seconds;
    return {
      fileBytes,
      copy: { seconds: copy.seconds, bytesPerSecond: rate(copy) },
      upload: { seconds: upload.seconds, bytesPerSecond: rate(upload), rss: uploadRss },
      download: { seconds: download.seconds, bytesPerSecond: rate(download), rss: downloadRss },
      small: { files, fileBytes: smallBytes, parallel, rounds, medianFilesPerSecond: median(rounds) },
      loadAverageStart,
      loadAverage: os.loadavg(),
      startedAt,
    };
  } finally {
    await server?.stop();
    await fs.rm(work, { recursive: true, force: true });
  }
}

const mibps = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
const growth = (r?: RssReport) => (r ? r.peakBytes - r.startBytes : 0);

export function artifactTargets(r: ArtifactBenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const [name, t] of [
    ["upload", r.upload],
    ["download", r.download],
  ] as const) {
    const fraction = t.bytesPerSecond / r.copy.bytesPerSecond;
    checks.push({
      target: `artifact ${name} of ${(r.fileBytes / MIB).toFixed(0)} MiB >= ${ARTIFACT_TARGETS.throughputFraction * 100}% of a local copy`,
      measured: `${mibps(t.bytesPerSecond)} vs ${mibps(r.copy.bytesPerSecond)} = ${(fraction * 100).toFixed(0)}%`,
      met: fraction >= ARTIFACT_TARGETS.throughputFraction,
    });
    checks.push({
      target: `artifact ${name}: server RSS growth < ${ARTIFACT_TARGETS.rssGrowthBytes / MIB} MiB`,
      measured: `+${(growth(t.rss) / MIB).toFixed(1)} MiB`,
      met: growth(t.rss) < ARTIFACT_TARGETS.rssGrowthBytes,
    });
  }
  checks.push({
    target: `${r.small.files} small artifacts (10 KiB) uploaded in parallel >= ${ARTIFACT_TARGETS.smallFilesPerSecond} files/s`,
    measured: `median ${r.small.medianFilesPerSecond.toFixed(0)} files/s (rounds: ${r.small.rounds.map((x) => x.toFixed(0)).join(", ")})`,
    met: r.small.medianFilesPerSecond >= ARTIFACT_TARGETS.smallFilesPerSecond,
  });
  return checks;
}

/** The comments around a section of docs/benchmarks.md that one bench script replaces alone. */
export interface SectionMarkers {
  start: string;
  end: string;
}

export const ARTIFACT_MARKERS: SectionMarkers = {
  start: "<!-- artifact-bench:start -->",
  end: "<!-- artifact-bench:end -->",
};

/** The section of docs/benchmarks.md, between markers so that `pnpm bench:artifacts` can replace it alone. */
export function artifactMarkdown(r: ArtifactBenchResult, command: string): string {
  const lines = [ARTIFACT_MARKERS.start, "## Artifact service", ""];
  lines.push(
    `Measured by \`${command}\` on ${r.startedAt.toISOString()}; load average (1, 5, 15 min) at the start ${r.loadAverageStart.map((x) => x.toFixed(2)).join(", ")}, at the end ${r.loadAverage.map((x) => x.toFixed(2)).join(", ")}.`,
    r.loadAverageStart[0]! > os.availableParallelism()
      ? "**The machine was busy at the start (1-minute load average above its core count)**, so the absolute figures are low and noisy; the ratios compare runs made back to back under the same load."
      : "The ratios compare runs made back to back in this one run.",
    "",
    `One ${(r.fileBytes / MIB).toFixed(0)} MiB file (a random MiB repeated) in a temporary folder on the same disk as the server's`,
    "artifacts destination. *Local copy*: read stream piped into a write stream in the bench process. *Upload*: a streamed",
    "`PUT` with Content-Length (the server writes a temporary file and renames it into place). *Download*: `GET`, written",
    "to a file. RSS: the server process's resident memory at the start of the transfer and its peak during it",
    "(embedded PGlite database in the same process).",
    "",
    "| transfer | seconds | throughput | of local copy | server RSS start -> peak |",
    "|---|---:|---:|---:|---:|",
  );
  for (const [name, t] of [
    ["local copy", r.copy],
    ["upload", r.upload],
    ["download", r.download],
  ] as const) {
    const rss = t.rss ? `${(t.rss.startBytes / MIB).toFixed(0)} -> ${(t.rss.peakBytes / MIB).toFixed(0)} MiB` : "-";
    lines.push(
      `| ${name} | ${t.seconds.toFixed(2)} | ${mibps(t.bytesPerSecond)} | ${((t.bytesPerSecond / r.copy.bytesPerSecond) * 100).toFixed(0)}% | ${rss} |`,
    );
  }
  lines.push(
    "",
    `Small files: ${r.small.files} files of 10 KiB uploaded by \`TrackerClient.uploadArtifacts\` (@tracker-ml/client, ${r.small.parallel} in parallel, one PUT per file), ${r.small.rounds.length} rounds: ${r.small.rounds.map((x) => x.toFixed(0)).join(", ")} files/s.`,
    "",
    "| target | measured | met |",
    "|---|---|---|",
  );
  for (const c of artifactTargets(r)) lines.push(`| ${c.target} | ${c.measured} | ${c.met ? "yes" : "**no**"} |`);
  lines.push("", ARTIFACT_MARKERS.end);
  return lines.join("\n");
}

/**
 * Puts a section into an existing report: in place of an earlier one between the same markers, else
 * after the section that `after` marks (when there is one), else at the end.
 */
export function spliceSection(
  report: string,
  section: string,
  markers: SectionMarkers,
  after?: SectionMarkers,
): string {
  const start = report.indexOf(markers.start);
  const end = report.indexOf(markers.end);
  if (start !== -1 && end > start) return report.slice(0, start) + section + report.slice(end + markers.end.length);
  const previous = after ? report.indexOf(after.end) : -1;
  if (after && previous !== -1) {
    const at = previous + after.end.length;
    return `${report.slice(0, at)}\n\n${section}${report.slice(at)}`;
  }
  return `${report.trimEnd()}\n\n${section}\n`;
}
