import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, loadConfig, startServer, type RunningServer, type TrackerConfig } from "./server.js";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { createPostgresDatabase, type TestDatabase } from "./databases.js";
import { storedArtifacts } from "./artifact-stores.js";
import { previewApi, trackingApi, type Api } from "./http.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of a migrated PGlite data dir made once per run by global-setup.ts. */
    pgliteTemplate: string;
  }
}

export interface TestServer extends RunningServer {
  dataDir: string;
  config: TrackerConfig;
  /** Restarts the server process state (same data dir / database). */
  restart(): Promise<TestServer>;
  /** Stops the server and removes its data. */
  dispose(): Promise<void>;
}

/** Starts a real server (in this process) on an ephemeral port over a fresh database of the given kind. */
export async function startTestServer(kind: TestDatabase, overrides: Partial<TrackerConfig> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-test-"));
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (kind === "pglite") {
    fs.cpSync(inject("pgliteTemplate"), path.join(dataDir, "pgdata"), { recursive: true });
  } else {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const config = loadConfig(
    {},
    {
      port: 0,
      host: "127.0.0.1",
      dataDir,
      databaseUrl,
      validateResponses: true,
      warmUp: false,
      logLevel: process.env.TEST_LOG_LEVEL ?? "silent",
      ...overrides,
    },
  );
  const boot = async (): Promise<TestServer> => {
    const server = await startServer(config, createLogger(config.logLevel));
    return {
      ...server,
      dataDir,
      config,
      async restart() {
        await server.close();
        return boot();
      },
      async dispose() {
        await server.close();
        await dropDatabase?.();
        if (config.artifactsDestination.startsWith("s3://")) await storedArtifacts(config.artifactsDestination).clear();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  return boot();
}

/** A test server for the enclosing `describe`: started in `beforeAll`, disposed in `afterAll`. */
export interface SuiteServer {
  /** The running server (available inside tests and hooks, after `beforeAll`). */
  readonly server: TestServer;
  readonly url: string;
  /** Revision C tracking API (`/api/2.0/tracker`). */
  readonly api: Api;
  /** The preview prefix (`/api/2.0/preview/tracker`). */
  readonly preview: Api;
  /** Restarts the server over the same data (`TestServer.restart`); `server` is the new one afterwards. */
  restart(): Promise<TestServer>;
}

export function useTestServer(kind: TestDatabase, overrides: Partial<TrackerConfig> = {}): SuiteServer {
  let server: TestServer | undefined;
  const running = () => {
    if (!server) throw new Error("the test server is not started yet (use it inside tests or hooks)");
    return server;
  };
  beforeAll(async () => {
    server = await startTestServer(kind, overrides);
  });
  afterAll(async () => {
    await server?.dispose();
  });
  const url = () => running().url;
  return {
    get server() {
      return running();
    },
    get url() {
      return url();
    },
    api: trackingApi(url),
    preview: previewApi(url),
    async restart() {
      server = await running().restart();
      return server;
    },
  };
}

/** A suite server with an experiment made for the suite, and runs made in it on request. */
export interface ExperimentSuite extends SuiteServer {
  /** The suite's experiment (created in `beforeAll`, after the server started). */
  readonly experimentId: string;
  /** Creates a run in the suite's experiment; resolves to its id. */
  newRun(): Promise<string>;
  /** POSTs to the revision C API and expects 200 (the answer's body in the failure message). */
  ok(operation: string, body: Record<string, unknown>): Promise<void>;
}

export function useExperimentSuite(
  kind: TestDatabase,
  experimentName: string,
  overrides: Partial<TrackerConfig> = {},
): ExperimentSuite {
  const suite = useTestServer(kind, overrides);
  let experimentId: string | undefined;
  beforeAll(async () => {
    const created = await suite.api.post<{ experiment_id: string }>("experiments/create", { name: experimentName });
    if (created.status !== 200)
      throw new Error(`experiments/create answered ${created.status}: ${JSON.stringify(created.body)}`);
    experimentId = created.body.experiment_id;
  });
  const ok = async (operation: string, body: Record<string, unknown>) => {
    const res = await suite.api.post(operation, body);
    expect(res.status, `${operation} ${JSON.stringify(res.body)}`).toBe(200);
  };
  const current = () => {
    if (experimentId === undefined)
      throw new Error("the suite's experiment is not created yet (use it inside tests or hooks)");
    return experimentId;
  };
  return {
    get server() {
      return suite.server;
    },
    get url() {
      return suite.url;
    },
    api: suite.api,
    preview: suite.preview,
    restart: () => suite.restart(),
    get experimentId() {
      return current();
    },
    async newRun() {
      const res = await suite.api.post<{ run: { info: { run_id: string } } }>("runs/create", {
        experiment_id: current(),
      });
      if (res.status !== 200) throw new Error(`runs/create answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.run.info.run_id;
    },
    ok,
  };
}
