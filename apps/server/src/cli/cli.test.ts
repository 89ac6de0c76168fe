import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { configFromFlags, workerCount } from "./options.js";
import { ConfigError, parseByteSize } from "../config/config.js";
import { backendStore, freePort, runCli, startServerProcess } from "@tracker/testing";
import { testDatabases } from "@tracker/testing";

describe("tracker CLI: flags and environment", () => {
  it("takes every server flag, and flags win over environment variables", () => {
    const env = {
      HOST: "0.0.0.0",
      PORT: "7000",
      TRACKER_DATA_DIR: "/env/data",
      TRACKER_ARTIFACT_ROOT: "/env/art",
      TRACKER_NAMESPACE: "envns",
    };
    expect(configFromFlags({}, env)).toMatchObject({
      host: "0.0.0.0",
      port: 7000,
      dataDir: "/env/data",
      artifactRoot: "/env/art",
      namespace: "envns",
      namespaceByPath: false,
    });
    const flagged = configFromFlags(
      {
        host: "127.0.0.2",
        port: 7001,
        backendStoreUri: "/flag/data",
        defaultArtifactRoot: "/flag/art",
        namespace: "mlflow",
      },
      { ...env, DATABASE_URL: "postgres://env@localhost/x" },
    );
    expect(flagged).toMatchObject({
      host: "127.0.0.2",
      port: 7001,
      dataDir: "/flag/data",
      artifactRoot: "/flag/art",
      namespace: "mlflow",
      namespaceByPath: false,
    });
    expect(flagged.databaseUrl).toBeUndefined();
    expect(configFromFlags({ backendStoreUri: "postgresql://u@h/db" }, env).databaseUrl).toBe("postgresql://u@h/db");
    expect(configFromFlags({}, { DATABASE_URL: "postgres://e@h/d" }).databaseUrl).toBe("postgres://e@h/d");
    expect(configFromFlags({}, {})).toMatchObject({
      host: "127.0.0.1",
      port: 5000,
      namespace: "tracker",
      namespaceByPath: true,
      artifactRootIsUri: false,
    });
    expect(configFromFlags({ defaultArtifactRoot: "file:///flag/art" }, {})).toMatchObject({
      artifactRoot: "/flag/art",
      artifactRootIsUri: true,
    });
    expect(workerCount({}, { TRACKER_WORKERS: "3" })).toBe(3);
    expect(workerCount({ workers: 2 }, { TRACKER_WORKERS: "3" })).toBe(2);
    expect(workerCount({}, {})).toBe(1);
    // Default: one per CPU on PostgreSQL, 1 on the embedded database.
    expect(workerCount({}, {}, true, 4)).toBe(4);
    expect(workerCount({}, {}, false, 4)).toBe(1);
    expect(workerCount({}, { TRACKER_WORKERS: "1" }, true, 4)).toBe(1);
    // Heap growth: 100% by default, the environment, then the flag; 0 leaves V8's policy.
    expect(configFromFlags({}, {}).heapGrowthPercent).toBe(100);
    expect(configFromFlags({}, { TRACKER_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
    expect(configFromFlags({ heapGrowthPercent: 50 }, { TRACKER_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(50);
    expect(configFromFlags({}, {})).toMatchObject({ maxInFlightRequests: 256, bodyTimeoutMs: 60_000 });
    expect(configFromFlags({}, { TRACKER_MAX_IN_FLIGHT_REQUESTS: "0", TRACKER_BODY_TIMEOUT: "500ms" })).toMatchObject({
      maxInFlightRequests: 0,
      bodyTimeoutMs: 500,
    });
    expect(
      configFromFlags({ maxInFlightRequests: 8, bodyTimeout: 120_000 }, { TRACKER_BODY_TIMEOUT: "5" }),
    ).toMatchObject({ maxInFlightRequests: 8, bodyTimeoutMs: 120_000 });
    expect(configFromFlags({}, { TRACKER_BODY_TIMEOUT: "2m" }).bodyTimeoutMs).toBe(120_000);
    // Shutdown: no delay and a 30 s drain by default; the environment, then the flags.
    expect(configFromFlags({}, {})).toMatchObject({ shutdownDelayMs: 0, drainTimeoutMs: 30_000 });
    expect(configFromFlags({}, { TRACKER_SHUTDOWN_DELAY: "15s", TRACKER_DRAIN_TIMEOUT: "0" })).toMatchObject({
      shutdownDelayMs: 15_000,
      drainTimeoutMs: 0,
    });
    expect(
      configFromFlags({ shutdownDelay: 500, drainTimeout: 120_000 }, { TRACKER_SHUTDOWN_DELAY: "15s" }),
    ).toMatchObject({ shutdownDelayMs: 500, drainTimeoutMs: 120_000 });
    // Abandoned S3 multipart uploads: aborted after 24 h by default; 0 never.
    expect(configFromFlags({}, {}).s3AbandonedUploadAgeMs).toBe(24 * 3_600_000);
    expect(configFromFlags({}, { TRACKER_S3_ABANDONED_UPLOAD_AGE: "30m" }).s3AbandonedUploadAgeMs).toBe(1_800_000);
    expect(
      configFromFlags({ s3AbandonedUploadAge: 0 }, { TRACKER_S3_ABANDONED_UPLOAD_AGE: "1h" }).s3AbandonedUploadAgeMs,
    ).toBe(0);
    for (const bad of [
      { TRACKER_SHUTDOWN_DELAY: "soon" },
      { TRACKER_DRAIN_TIMEOUT: "-1" },
      { TRACKER_S3_ABANDONED_UPLOAD_AGE: "2d" },
    ])
      expect(() => configFromFlags({}, bad)).toThrow(/must be a duration/);
    for (const bad of ["-1", "301", "1.5", "lots"])
      expect(() => configFromFlags({}, { TRACKER_HEAP_GROWTH_PERCENT: bad })).toThrow(ConfigError);
    // Web UI sessions: 7 days by default, in days or any other unit, from 1 minute to 365 days.
    expect(configFromFlags({}, {}).sessionLifetimeMs).toBe(7 * 86_400_000);
    expect(configFromFlags({}, { TRACKER_SESSION_LIFETIME: "30d" }).sessionLifetimeMs).toBe(30 * 86_400_000);
    expect(configFromFlags({}, { TRACKER_SESSION_LIFETIME: "12h" }).sessionLifetimeMs).toBe(12 * 3_600_000);
    expect(configFromFlags({ sessionLifetime: 3_600_000 }, { TRACKER_SESSION_LIFETIME: "30d" }).sessionLifetimeMs).toBe(
      3_600_000,
    );
    for (const bad of ["30s", "366d", "0", "forever"])
      expect(() => configFromFlags({}, { TRACKER_SESSION_LIFETIME: bad })).toThrow(
        /TRACKER_SESSION_LIFETIME must be a duration from 60 s to 365 d/,
      );
  });

  it("takes the artifact flags: serving on by default, file:// URIs for folders, sizes with units", () => {
    const defaults = configFromFlags({ backendStoreUri: "/d" }, {});
    expect(defaults).toMatchObject({
      serveArtifacts: true,
      proxyArtifacts: true,
      artifactsDestination: "/d/artifacts",
      artifactsOnly: false,
      maxArtifactSize: 10 * 1024 ** 3,
    });
    const flagged = configFromFlags(
      {
        backendStoreUri: "/d",
        serveArtifacts: false,
        artifactsDestination: "file:///srv/art",
        artifactsOnly: true,
        maxArtifactSize: 5,
        defaultArtifactRoot: "file:///srv/root",
      },
      {},
    );
    expect(flagged).toMatchObject({
      serveArtifacts: false,
      proxyArtifacts: false,
      artifactsDestination: "/srv/art",
      artifactsOnly: true,
      maxArtifactSize: 5,
      artifactRoot: "/srv/root",
    });
    // An explicit root keeps local folders even while serving; the environment works as the flags do.
    expect(configFromFlags({ defaultArtifactRoot: "/r" }, {})).toMatchObject({
      serveArtifacts: true,
      proxyArtifacts: false,
      artifactRoot: "/r",
    });
    expect(
      configFromFlags(
        {},
        {
          TRACKER_SERVE_ARTIFACTS: "0",
          TRACKER_ARTIFACTS_DESTINATION: "file:/e/a",
          TRACKER_MAX_ARTIFACT_SIZE: "512MB",
        },
      ),
    ).toMatchObject({
      serveArtifacts: false,
      artifactsDestination: "/e/a",
      maxArtifactSize: 512 * 1000 ** 2,
    });
    expect(parseByteSize("10GiB")).toBe(10 * 1024 ** 3);
    expect(parseByteSize("1.5k")).toBe(1500);
    expect(parseByteSize("1.5KiB")).toBe(1536);
    for (const bad of ["", "-1", "ten", "0"]) expect(() => parseByteSize(bad)).toThrow(ConfigError);
    for (const bad of ["s3://Bad_Bucket/x", "s3://bucket/../x", "gs://bucket/x", "file://other.host/x"])
      expect(() => configFromFlags({ artifactsDestination: bad }, {})).toThrow(ConfigError);
    expect(
      configFromFlags(
        { artifactsDestination: "s3://bucket/a//b/", defaultArtifactRoot: "s3://other", s3PathStyle: true },
        {},
      ),
    ).toMatchObject({
      artifactsDestination: "s3://bucket/a/b",
      artifactRoot: "s3://other",
      artifactRootIsUri: true,
      s3PathStyle: true,
    });
  });

  it("prints --help for every command", async () => {
    for (const args of [
      ["--help"],
      ["server", "--help"],
      ["db", "--help"],
      ["db", "migrate", "--help"],
      ["db", "upgrade", "--help"],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(" ")).toBe(0);
      expect(run.stdout).toMatch(/Usage: tracker/);
    }
    const server = await runCli(["server", "--help"]);
    for (const flag of [
      "--host",
      "--port",
      "--backend-store-uri",
      "--default-artifact-root",
      "--workers",
      "--namespace",
      "--no-serve-artifacts",
      "--artifacts-destination",
      "--artifacts-only",
      "--max-artifact-size",
      "--heap-growth-percent",
      "--max-in-flight-requests",
      "--body-timeout",
      "--shutdown-delay",
      "--drain-timeout",
    ])
      expect(server.stdout).toContain(flag);
  });

  // One test per case: each CLI start has the whole test timeout, however loaded the machine is.
  it.each(
    [
      ["server", "--bogus"],
      ["server", "--port", "abc"],
      ["server", "--workers", "0"],
      ["frobnicate"],
      ["server", "--namespace", "Bad Name!"],
      ["server", "--heap-growth-percent", "400"],
      ["server", "--max-in-flight-requests", "-1"],
      ["server", "--body-timeout", "soon"],
      ["server", "--session-lifetime", "400d"],
    ].map((args) => ({ args, line: args.join(" ") })),
  )("answers `$line` with one error line and exit code 2", async ({ args }) => {
    const run = await runCli(args);
    expect(run.code, args.join(" ")).toBe(2);
    expect(run.stderr.trim().split("\n")[0]).toMatch(/error|tracker:/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it.each([
    { PORT: "70000" },
    { TRACKER_HEAP_GROWTH_PERCENT: "half" },
    { TRACKER_BODY_TIMEOUT: "1 week" },
    { TRACKER_MAX_IN_FLIGHT_REQUESTS: "many" },
  ])("answers a bad environment value %o with exit code 2", async (env) => {
    const envBad = await runCli(["server"], env);
    expect(envBad.code, JSON.stringify(env)).toBe(2);
    expect(envBad.stderr).not.toMatch(/\n\s+at /);
  });

  it("answers an unreachable database URL with one error line and exit code 2", async () => {
    const port = await freePort();
    for (const cmd of [["server"], ["db", "migrate"]]) {
      const run = await runCli([...cmd, "--backend-store-uri", `postgresql://nobody@127.0.0.1:${port}/none`]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/cannot reach the database/);
    }
  });

  it("refuses --workers above 1 on the embedded database", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-cli-w-"));
    const run = await runCli(["server", "--workers", "2", "--backend-store-uri", dir]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/needs PostgreSQL/);
  });
});

describe.each(testDatabases())("tracker CLI on %s", (kind) => {
  const disposers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const dispose of disposers) await dispose();
  });

  it("db migrate and db upgrade migrate and exit 0", async () => {
    const store = await backendStore(kind);
    disposers.push(store.dispose);
    for (const cmd of ["migrate", "upgrade"]) {
      const run = await runCli(["db", cmd, "--backend-store-uri", store.uri]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/up to date/);
    }
  });

  it.runIf(kind === "postgres")(
    "refuses a database migrated by a newer build, saying so (a rolling upgrade's restart)",
    async () => {
      const store = await backendStore(kind);
      disposers.push(store.dispose);
      const first = await runCli(["db", "migrate", "--backend-store-uri", store.uri]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/applied \d+ database migration\(s\)/);
      const client = new pg.Client({ connectionString: store.uri });
      await client.connect();
      try {
        await client.query(
          "INSERT INTO knex_migrations (name, batch, migration_time) VALUES ('9999_from_the_future', 99, now())",
        );
      } finally {
        await client.end();
      }
      const refusal =
        /the database was migrated by a newer tracker: migration 9999_from_the_future is not known to this build/;
      const migrate = await runCli(["db", "migrate", "--backend-store-uri", store.uri]);
      expect(migrate.code).toBe(2);
      expect(migrate.stderr).toMatch(refusal);
      const serve = await runCli(["server", "--workers", "1", "--backend-store-uri", store.uri]);
      expect(serve.code).toBe(2);
      expect(serve.stderr).toMatch(refusal);
    },
  );

  it("serves with --namespace mlflow: mlflow.* system tags, and both path segments", async () => {
    const store = await backendStore(kind);
    disposers.push(store.dispose);
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-cli-art-"));
    const server = await startServerProcess([
      "--namespace",
      "mlflow",
      "--backend-store-uri",
      store.uri,
      "--default-artifact-root",
      artifacts,
    ]);
    try {
      const run = await fetch(`${server.url}/api/2.0/mlflow/runs/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ experiment_id: "0", user_id: "u1" }),
      });
      const body = (await run.json()) as {
        run: { info: { artifact_uri: string; run_id: string }; data: { tags: Array<{ key: string; value: string }> } };
      };
      expect(body.run.data.tags.map((t) => t.key).sort()).toEqual(["mlflow.runName", "mlflow.user"]);
      expect(body.run.info.artifact_uri.startsWith(path.join(artifacts, "0"))).toBe(true);
      const viaTracker = await fetch(`${server.url}/ajax-api/2.0/tracker/runs/get?run_id=${body.run.info.run_id}`);
      expect(viaTracker.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });

  // A server process on a fresh database: its start took 45-60 s with the 2 cores loaded 30 times over.
  it("names --artifacts-destination in the start-up line, where uploads go (issue 28, item 6)", {
    timeout: 180_000,
  }, async () => {
    const store = await backendStore(kind);
    disposers.push(store.dispose);
    const destination = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-cli-dest-"));
    const server = await startServerProcess(
      ["--backend-store-uri", store.uri, "--artifacts-destination", destination],
      {
        env: { ...store.env, LOG_LEVEL: "info" },
      },
    );
    try {
      const startup = server
        .output()
        .split("\n")
        .filter((line) => line.includes('"startup":true'))
        .map((line) => JSON.parse(line) as { artifactsDestination?: string; artifactRoot?: string })[0];
      expect(startup?.artifactsDestination).toBe(destination);
      expect(JSON.stringify(startup)).not.toContain(path.join(".tracker", "artifacts"));
      const upload = await fetch(`${server.url}/api/2.0/mlflow-artifacts/artifacts/0/check/file.txt`, {
        method: "PUT",
        body: "stored",
      });
      expect(upload.status, await upload.text()).toBe(200);
      expect(fs.readFileSync(path.join(destination, "0", "check", "file.txt"), "utf8")).toBe("stored");
    } finally {
      expect(await server.stop()).toBe(0);
      fs.rmSync(destination, { recursive: true, force: true });
    }
  });

  it.runIf(kind === "postgres")("runs two workers on one database", async () => {
    const store = await backendStore(kind);
    disposers.push(store.dispose);
    const server = await startServerProcess(["--workers", "2", "--backend-store-uri", store.uri]);
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${server.url}/api/2.0/tracker/experiments/create`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ name: `w-${i}` }),
          }).then((r) => r.status),
        ),
      );
      expect(results.every((s) => s === 200)).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
