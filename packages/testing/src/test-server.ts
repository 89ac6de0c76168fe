import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, loadConfig, startServer, type RunningServer, type TrackerConfig } from "./server.js";
import { afterAll, beforeAll, inject } from "vitest";
import { createPostgresDatabase, type TestDatabase } from "./databases.js";
import { previewApi, trackingApi, type Api } from "./http.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of a migrated PGlite data dir made once per run by global-setup.ts. */
    pgliteTemplate: string;
  }
}

export interface TestServer extends RunningServer {
  dataDir: string;
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
    { port: 0, host: "127.0.0.1", dataDir, databaseUrl, validateResponses: true, logLevel: process.env.TEST_LOG_LEVEL ?? "silent", ...overrides },
  );
  const boot = async (): Promise<TestServer> => {
    const server = await startServer(config, createLogger(config.logLevel));
    return {
      ...server,
      dataDir,
      async restart() {
        await server.close();
        return boot();
      },
      async dispose() {
        await server.close();
        await dropDatabase?.();
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
  };
}
