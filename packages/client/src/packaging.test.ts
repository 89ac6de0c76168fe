// The package as users get it: `pnpm pack` the client, install the tarball with npm into a project
// outside the workspace, type-check a small TypeScript program against the installed declarations
// with tsc (NodeNext and Bundler resolution), compile it and run it against a tracker server started
// as its own process, the way users start it.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startServerProcess, type ServerProcess } from "@tracker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tscBin = path.join(
  path.dirname(createRequire(path.join(packageDir, "package.json")).resolve("typescript/package.json")),
  "bin",
  "tsc",
);

const PACKAGING_TIMEOUT_MS = 240_000;

/** `tracker server` as a separate process on a fresh data dir, configured by its flags alone. */
function startTracker(dataDir: string): Promise<ServerProcess> {
  // The flags alone decide: an embedded database in dataDir, no auth, default namespace.
  const unset = Object.fromEntries(
    ["TRACKER_AUTH_TOKEN", "TRACKER_ARTIFACT_ROOT", "TRACKER_NAMESPACE", "TRACKER_DATA_DIR", "HOST", "PORT"].map(
      (name) => [name, undefined],
    ),
  );
  return startServerProcess(["--backend-store-uri", dataDir], { env: unset, timeoutMs: 90_000 });
}

/** The consumer program: written by a user who only has the published package. */
const program = (baseUrl: string) => `
import { TrackerClient, TrackerError, createClient, type Experiment, type Run } from "@tracker-ml/client";
import { createClient as createRevA } from "@tracker-ml/client/rev-a";
import { createClient as createRevC, type paths } from "@tracker-ml/client/rev-c";

const baseUrl = ${JSON.stringify(baseUrl)};

async function main(): Promise<void> {
  const client = new TrackerClient({ baseUrl, timeoutMs: 10_000, retry: { retries: 2 } });
  const experimentId: string = await client.createExperiment("packaged-client", { tags: { via: "tarball" } });
  const run: Run = await client.createRun(experimentId, { runName: "from-npm" });
  const runId = run.info.run_id;
  await client.logParam(runId, "lr", 0.01);
  await client.logMetric(runId, "nan", NaN);

  const batcher = client.batcher(runId, { flushIntervalMs: 100 });
  for (let step = 0; step < 1500; step++) batcher.logMetric("loss", 1 / (step + 1), { step });
  await batcher.close();
  await client.setTerminated(runId);

  const found: string[] = [];
  for await (const r of client.searchRuns(experimentId, { filter: "params.lr = '0.01'", pageSize: 1 })) found.push(r.info.run_id);
  const experiments: Experiment[] = await client.searchExperiments({ filter: "tags.via = 'tarball'" }).toArray();
  const history = await client.getMetricHistory(runId, "loss");
  const nan = (await client.getRun(runId)).data.metrics.find((m) => m.key === "nan")?.value;

  let error = "";
  try {
    await client.getExperiment("999999");
  } catch (caught) {
    if (caught instanceof TrackerError) error = caught.errorCode + "/" + caught.status;
  }

  const revC = createRevC({ baseUrl });
  const got = await revC.GET("/2.0/tracker/runs/get", { params: { query: { run_id: runId } } });
  const revA = createRevA({ baseUrl });
  const listed = await revA.GET("/2.0/preview/tracker/experiments/list");
  const viaMain = createClient({ baseUrl, revision: "c" });
  const byName = await viaMain.GET("/2.0/tracker/experiments/get-by-name", { params: { query: { experiment_name: "packaged-client" } } });

  console.log(
    JSON.stringify({
      runId,
      found,
      experiments: experiments.map((e) => e.name),
      historyLength: history.length,
      nanIsNaN: Number.isNaN(nan),
      status: got.data?.run.info.status,
      error,
      seenByRevisionA: listed.data?.experiments.some((e) => e.name === "packaged-client") ?? false,
      byNameId: byName.data?.experiment.experiment_id === experimentId,
    }),
  );
}

// Compile-time checks against the published declarations (tsc fails on an unused @ts-expect-error).
export function typeChecks(client: TrackerClient): void {
  // @ts-expect-error metric values are numbers
  void client.logMetric("r", "k", "1");
  // @ts-expect-error not a model stage
  void client.transitionModelVersionStage("m", 1, "Prod");
  const revC = createRevC({ baseUrl });
  // @ts-expect-error experiment ids are strings in revision C
  void revC.GET("/2.0/tracker/experiments/get", { params: { query: { experiment_id: 1 } } });
  const revA = createRevA({ baseUrl });
  // @ts-expect-error revision A has no model registry
  void revA.POST("/2.0/preview/tracker/registered-models/create", { body: { name: "m" } });
  const route: keyof paths = "/2.0/preview/tracker/model-versions/transition-stage";
  void route;
  const uri: Promise<string> = client.getModelVersionDownloadUri("m", 1);
  const runs: AsyncIterable<Run> = client.searchRuns("0");
  void uri;
  void runs;
}

await main();
`;

const tsconfig = (moduleResolution: "NodeNext" | "Bundler") => ({
  compilerOptions: {
    target: "ES2022",
    module: moduleResolution === "NodeNext" ? "NodeNext" : "ESNext",
    moduleResolution,
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    strict: true,
    skipLibCheck: false,
    outDir: "dist",
    rootDir: "src",
  },
  include: ["src"],
});

describe("the packed package", () => {
  let workDir: string;
  let tarball: string;
  let consumer: string;
  let server: ServerProcess | undefined;
  let serverStart: Promise<ServerProcess>;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-client-packaging-"));
    // The server's data dir takes seconds to initialise: start it while packing and installing.
    serverStart = startTracker(path.join(workDir, "server-data"));
    serverStart.catch(() => undefined);

    const packed = await run("pnpm", ["pack", "--json", "--pack-destination", workDir], { cwd: packageDir });
    tarball = (JSON.parse(packed.stdout) as { filename: string }).filename;

    consumer = path.join(workDir, "consumer");
    fs.mkdirSync(path.join(consumer, "src"), { recursive: true });
    fs.writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2),
    );
    await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--loglevel=error", tarball],
      {
        cwd: consumer,
        env: { ...process.env, npm_config_workspaces: "false" },
      },
    );
    server = await serverStart;
  }, PACKAGING_TIMEOUT_MS);

  afterAll(async () => {
    await (server ?? (await serverStart?.catch(() => undefined)))?.stop(10_000);
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  }, 30_000);

  it("holds the build, declarations, README and LICENSE, and nothing from the workspace", async () => {
    const listing = await run("tar", ["-tzf", tarball]);
    const files = listing.stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    for (const required of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/rev-a.js",
      "dist/rev-b.d.ts",
      "dist/rev-c.d.ts",
      "dist/generated/rev-c.d.ts",
    ]) {
      expect(files).toContain(required);
    }
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("scripts/") || /\.test(-d)?\./.test(f))).toEqual(
      [],
    );

    const manifest = JSON.parse(
      fs.readFileSync(path.join(consumer, "node_modules", "@tracker-ml", "client", "package.json"), "utf8"),
    ) as {
      dependencies: Record<string, string>;
      version: string;
      license: string;
    };
    expect(manifest).toMatchObject({ version: "0.1.0", license: "MIT" });
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
    expect(manifest.dependencies["openapi-fetch"]).toMatch(/^\^?\d/);
    expect(fs.existsSync(path.join(consumer, "node_modules", "@tracker"))).toBe(false);
  });

  it(
    "type-checks a TypeScript program against the installed package, compiles it and runs it against a server",
    async () => {
      const started = server as ServerProcess;
      fs.writeFileSync(path.join(consumer, "src", "main.ts"), program(started.url));
      fs.writeFileSync(path.join(consumer, "tsconfig.json"), JSON.stringify(tsconfig("NodeNext"), null, 2));
      fs.writeFileSync(
        path.join(consumer, "tsconfig.bundler.json"),
        JSON.stringify(
          { ...tsconfig("Bundler"), compilerOptions: { ...tsconfig("Bundler").compilerOptions, noEmit: true } },
          null,
          2,
        ),
      );

      const check = async (project: string) => {
        try {
          await run(process.execPath, [tscBin, "-p", project], { cwd: consumer });
        } catch (error) {
          const failed = error as { stdout?: string; stderr?: string };
          throw new Error(`tsc -p ${project} failed:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
        }
      };
      await check("tsconfig.bundler.json");
      await check("tsconfig.json");

      const result = await run(process.execPath, [path.join(consumer, "dist", "main.js")], {
        cwd: consumer,
        timeout: 60_000,
      });
      const report = JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
      expect(report).toMatchObject({
        found: [report.runId],
        experiments: ["packaged-client"],
        historyLength: 1500,
        nanIsNaN: true,
        status: "FINISHED",
        error: "RESOURCE_DOES_NOT_EXIST/404",
        seenByRevisionA: true,
        byNameId: true,
      });
    },
    PACKAGING_TIMEOUT_MS,
  );
});
