import path from "node:path";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import {
  artifactBenchCommand,
  benchCommand,
  parseArtifactBenchArgs,
  parseBenchArgs,
  parseProfileArgs,
  profileCommand,
} from "./options.js";
import { DOCS_DIR } from "./paths.js";

/** Parses without ending the process: commander throws instead and writes nothing. */
const quiet = () =>
  benchCommand()
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} });
const parse = (...argv: string[]) => parseBenchArgs(argv, quiet());

describe("pnpm bench options", () => {
  it("defaults to the full run written to docs/", () => {
    expect(parse()).toEqual({
      quick: false,
      only: [],
      out: DOCS_DIR,
      write: true,
      load: {},
      baselineOrder: "interleaved",
    });
  });

  it("takes every flag, after pnpm's -- separator too", () => {
    const args = parse(
      "--",
      "--only",
      "runs/search,log-metric",
      "--seconds",
      "2.5",
      "--workers",
      "1,2,4",
      "--startup-runs",
      "0",
      "--no-embedded",
      "--out",
      "report",
      "--no-write",
    );
    expect(args).toEqual({
      quick: false,
      only: ["runs/search", "log-metric"],
      out: path.resolve("report"),
      write: false,
      load: { seconds: 2.5, workerCounts: [1, 2, 4], startupRuns: 0, embedded: false },
      baselineOrder: "interleaved",
    });
  });

  it("measures the baseline beside each scenario unless --baseline-after", () => {
    expect(parse("--baseline", "old/cli.js")).toMatchObject({
      baselineCli: path.resolve("old/cli.js"),
      baselineOrder: "interleaved",
    });
    expect(parse("--baseline", "old/cli.js", "--baseline-after").baselineOrder).toBe("after");
  });

  it("writes nothing on --quick unless --out says where", () => {
    expect(parse("--quick").write).toBe(false);
    expect(parse("--quick", "--out", "x").write).toBe(true);
  });

  it.each([
    [["--seconds", "0"]],
    [["--seconds", "abc"]],
    [["--workers", "1,0"]],
    [["--startup-runs", "-1"]],
    [["--only"]],
    [["--fast"]],
    [["extra"]],
  ])("refuses %j", (argv) => {
    expect(() => parse(...argv)).toThrow(CommanderError);
  });

  it("lists every flag in --help", () => {
    const help = benchCommand().helpInformation();
    for (const flag of [
      "--quick",
      "--only",
      "--seconds",
      "--workers",
      "--startup-runs",
      "--no-embedded",
      "--baseline",
      "--baseline-after",
      "--out",
      "--no-write",
    ])
      expect(help).toContain(flag);
  });
});

describe("the other bench scripts' options", () => {
  it("bench:artifacts writes unless --quick or --no-write", () => {
    const both = ["folder", "s3"];
    expect(parseArtifactBenchArgs([])).toEqual({ quick: false, write: true, stores: both });
    expect(parseArtifactBenchArgs(["--quick"])).toEqual({ quick: true, write: false, stores: both });
    expect(parseArtifactBenchArgs(["--", "--no-write"])).toEqual({ quick: false, write: false, stores: both });
    expect(parseArtifactBenchArgs(["--stores", "s3"])).toEqual({ quick: false, write: true, stores: ["s3"] });
    expect(() =>
      parseArtifactBenchArgs(
        ["--stores", "tape"],
        artifactBenchCommand()
          .exitOverride()
          .configureOutput({ writeErr: () => undefined }),
      ),
    ).toThrow(/folder and\/or s3/);
  });

  it("profile defaults to log-metric for 10 seconds", () => {
    expect(parseProfileArgs([])).toEqual({ scenario: "log-metric", seconds: 10, embedded: false, top: 15 });
    expect(
      parseProfileArgs([
        "--scenario",
        "runs/search",
        "--seconds",
        "3",
        "--embedded",
        "--top",
        "25",
        "--keep",
        "p.cpuprofile",
      ]),
    ).toEqual({
      scenario: "runs/search",
      seconds: 3,
      embedded: true,
      top: 25,
      keep: path.resolve("p.cpuprofile"),
    });
    expect(() =>
      parseProfileArgs(
        ["--seconds", "0"],
        profileCommand()
          .exitOverride()
          .configureOutput({ writeErr: () => {} }),
      ),
    ).toThrow(CommanderError);
  });
});
