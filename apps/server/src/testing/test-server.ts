import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory from "knex";
import { inject } from "vitest";
import { loadConfig, type TrackerConfig } from "../config/config.js";
import { createLogger } from "../logging/logger.js";
import { startServer, type RunningServer } from "../server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of a migrated PGlite data dir made once per run by global-setup.ts. */
    pgliteTemplate: string;
  }
}

export type TestDatabase = "pglite" | "postgres";

/** The databases tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabases(): TestDatabase[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

export interface TestServer extends RunningServer {
  dataDir: string;
  /** Restarts the server process state (same data dir / database). */
  restart(): Promise<TestServer>;
  /** Stops the server and removes its data. */
  dispose(): Promise<void>;
}

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `tracker_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = knexFactory({ client: "pg", connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = knexFactory({ client: "pg", connection: adminUrl, pool: { min: 0, max: 1 } });
      await again.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.destroy();
    },
  };
}

/** Starts a real server on an ephemeral port over a fresh database of the given kind. */
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
    const testServer: TestServer = {
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
    return testServer;
  };
  return boot();
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends one request; GET inputs go to the query string (arrays as repeated keys), others as JSON. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  pathname: string,
  input?: Record<string, unknown> | string,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  let url = `${baseUrl}${pathname}`;
  let body: string | undefined;
  if (method === "GET" && input && typeof input === "object") {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(input)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
    }
    url += `?${params.toString()}`;
  } else if (input !== undefined) {
    body = typeof input === "string" ? input : JSON.stringify(input);
  }
  const response = await fetch(url, {
    method,
    body,
    headers: body !== undefined ? { "content-type": "application/json", ...headers } : headers,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** A tiny client for tests: `api.post("experiments/create", {...})` under a revision's prefix. */
export function apiAt(baseUrl: string, prefix: string) {
  const at = (op: string) => `/api/${prefix}/${op}`;
  return {
    get: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) => call<T>(baseUrl, "GET", at(op), input),
    post: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown> | string) => call<T>(baseUrl, "POST", at(op), input),
    patch: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) => call<T>(baseUrl, "PATCH", at(op), input),
    delete: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) => call<T>(baseUrl, "DELETE", at(op), input),
  };
}

export type Api = ReturnType<typeof apiAt>;
export const trackingApi = (baseUrl: string) => apiAt(baseUrl, "2.0/tracker");
export const previewApi = (baseUrl: string) => apiAt(baseUrl, "2.0/preview/tracker");
