import { describe, expect, it } from "vitest";
import { ARTIFACT_MARKERS, spliceSection } from "./artifacts.js";
import {
  chooseS3Source,
  parseS3Url,
  S3_MARKERS,
  S3_QUICK,
  type S3BenchResult,
  s3Markdown,
  s3Targets,
} from "./s3-artifacts.js";

// The S3 bench's logic without an S3 server: where the server comes from, how figures are judged
// and written. (`pnpm bench --quick` in bench.test.ts runs the whole section when TEST_S3_URL is set.)

const MIB = 1024 * 1024;
const transfer = (seconds: number, rss?: { startBytes: number; peakBytes: number }) => ({
  seconds,
  bytesPerSecond: (16 * MIB) / seconds,
  ...(rss ? { rss } : {}),
});

function result(overrides: Partial<S3BenchResult> = {}): S3BenchResult {
  return {
    store: "Ceph 16.2.15 radosgw",
    sizes: S3_QUICK,
    upload: { tracker: transfer(2, { startBytes: 100 * MIB, peakBytes: 130 * MIB }), direct: transfer(1) },
    download: { tracker: transfer(1.5, { startBytes: 100 * MIB, peakBytes: 110 * MIB }), direct: transfer(1) },
    small: { tracker: [300, 500, 400], direct: [700, 800, 900] },
    listing: { tracker: [0.3, 0.2, 0.25], direct: [0.1, 0.15, 0.12] },
    loadAverageStart: [0.5, 0.5, 0.5],
    loadAverage: [0.6, 0.6, 0.6],
    startedAt: new Date("2026-11-26T04:00:00Z"),
    ...overrides,
  };
}

describe("chooseS3Source", () => {
  it("takes TEST_S3_URL first, then AWS_ENDPOINT_URL with a bucket of its own, then a throwaway radosgw", () => {
    const both = { TEST_S3_URL: "s3://b/p", AWS_ENDPOINT_URL: "http://127.0.0.1:1" };
    expect(chooseS3Source(both, true)).toEqual({ kind: "given", url: "s3://b/p", createBucket: false });
    expect(chooseS3Source({ AWS_ENDPOINT_URL: "http://127.0.0.1:1" }, true)).toEqual({
      kind: "given",
      url: "s3://tracker-bench",
      createBucket: true,
    });
    expect(chooseS3Source({}, true)).toEqual({ kind: "throwaway" });
  });

  it("skips with the reason when there is no S3 server, or TEST_S3_URL is not an s3:// URI", () => {
    expect(chooseS3Source({}, false)).toMatchObject({ kind: "none", reason: expect.stringMatching(/radosgw/) });
    expect(chooseS3Source({ TEST_S3_URL: "http://x/y" }, true)).toMatchObject({
      kind: "none",
      reason: expect.stringMatching(/TEST_S3_URL/),
    });
  });

  it("splits s3:// URIs into bucket and prefix", () => {
    expect(parseS3Url("s3://bucket/a/b/")).toEqual({ bucket: "bucket", prefix: "a/b" });
    expect(parseS3Url("s3://bucket")).toEqual({ bucket: "bucket", prefix: "" });
  });
});

describe("s3Targets", () => {
  it("judges tracker against direct: rates as fractions, RSS growth, medians of the rounds, the listing ratio", () => {
    const checks = s3Targets(result());
    expect(checks.map((c) => [c.met, c.measured])).toEqual([
      [true, "8 MiB/s vs 16 MiB/s = 50%"],
      [true, "+30.0 MiB"],
      [true, "11 MiB/s vs 16 MiB/s = 67%"],
      [true, "+10.0 MiB"],
      [true, "median 400 vs 800 files/s = 50%"],
      [false, "median 250 ms vs 120 ms = 2.08x"],
    ]);
  });

  it("fails the RSS target at 64 MiB of growth and the small-file target below half", () => {
    const checks = s3Targets(
      result({
        upload: { tracker: transfer(1, { startBytes: 0, peakBytes: 64 * MIB }), direct: transfer(1) },
        small: { tracker: [399], direct: [800] },
      }),
    );
    expect(checks[1]).toMatchObject({ met: false, measured: "+64.0 MiB" });
    expect(checks[4]).toMatchObject({ met: false });
  });
});

describe("s3Markdown", () => {
  it("writes a section between its markers that replaces an earlier one and leaves the rest", () => {
    const section = s3Markdown(result(), "pnpm bench:artifacts --quick");
    expect(section.startsWith(S3_MARKERS.start)).toBe(true);
    expect(section.endsWith(S3_MARKERS.end)).toBe(true);
    expect(section).toMatch(
      /\| upload of 16 MiB \| 2\.00 s, 8 MiB\/s \| 1\.00 s, 16 MiB\/s \| 50% \| 100 -> 130 MiB \|/,
    );
    expect(section).toMatch(/\| listing 1,500 files, median ms \(rounds\) \| 250 \(300, 200, 250\)/);
    const report = `# Benchmarks\n\nbefore\n\n${s3Markdown({ skipped: "no S3" }, "old")}\n\nafter\n`;
    const spliced = spliceSection(report, section, S3_MARKERS);
    expect(spliced).toContain("before");
    expect(spliced).toContain("after");
    expect(spliced).not.toContain("no S3");
    expect(spliced.split(S3_MARKERS.start)).toHaveLength(2);
    expect(spliceSection("# Benchmarks\n", section, S3_MARKERS)).toBe(`# Benchmarks\n\n${section}\n`);
    // A first S3 section goes right after the artifact service's.
    const folder = `${ARTIFACT_MARKERS.start}\n## Artifact service\n${ARTIFACT_MARKERS.end}`;
    expect(spliceSection(`# B\n\n${folder}\n\n## Data\n`, section, S3_MARKERS, ARTIFACT_MARKERS)).toBe(
      `# B\n\n${folder}\n\n${section}\n\n## Data\n`,
    );
  });
});
