import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrackerClient } from "@tracker-ml/client";
import { createClient as createExtClient } from "@tracker-ml/client/ext";
import { createClient as createClientC } from "@tracker-ml/client/rev-c";
import { serverProcessDatabases } from "@tracker/testing";
import { coverage, coverageTable } from "./harness/coverage.js";
import type { ExtContext, ExtScenario } from "./harness/ext-scenario.js";
import { Recorder } from "./harness/recorder.js";
import { AUTH_TOKEN, startContractServer, type ContractServer } from "./harness/servers.js";

/**
 * The contract of tracker's own operations (spec/ext.yaml), as contract.test.ts is for the
 * revisions: the published client against the real server process, every answer validated by Ajv
 * against ext.yaml, and every ext operation exercised with every status it documents. The
 * scenarios live one concern per file in src/ext-scenarios/.
 */

const scenarioDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "ext-scenarios");
const scenarios: ExtScenario[] = await Promise.all(
  fs
    .readdirSync(scenarioDir)
    .filter((f) => f.endsWith(".scenario.ts"))
    .sort()
    .map(
      async (f) =>
        ((await import(pathToFileURL(path.join(scenarioDir, f)).href)) as { scenario: ExtScenario }).scenario,
    ),
);

const s3Destination = process.env.TEST_S3_URL?.replace(/\/+$/, "");
const MULTIPART = new Set(["createMultipartUpload", "completeMultipartUpload", "abortMultipartUpload"]);
const S3_ONLY = new Set(["200", "404", "413"]);

describe.each(serverProcessDatabases())("contract: client x server x ext.yaml on %s", (kind) => {
  const recorder = new Recorder();
  let server: ContractServer;
  let authServer: ContractServer;
  let s3Server: ContractServer | undefined;
  let ctx: ExtContext;
  let artifacts: string;

  beforeAll(async () => {
    // Artifacts in a folder of their own; uploads above 1 MiB are refused (the scenario proves the 413).
    artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-contract-artifacts-"));
    const env = { TRACKER_ARTIFACTS_DESTINATION: artifacts, TRACKER_MAX_ARTIFACT_SIZE: "1MiB" };
    [server, authServer, s3Server] = await Promise.all([
      startContractServer(kind, env),
      startContractServer(kind, { ...env, TRACKER_AUTH_TOKEN: AUTH_TOKEN }),
      s3Destination
        ? startContractServer(kind, {
            ...env,
            TRACKER_ARTIFACTS_DESTINATION: `${s3Destination}/${randomUUID()}`,
            TRACKER_S3_PATH_STYLE: "1",
          })
        : undefined,
    ]);
    const options = { baseUrl: server.url, retry: false as const };
    ctx = {
      kind,
      url: server.url,
      authUrl: authServer.url,
      ...(s3Server ? { s3Url: s3Server.url } : {}),
      ext: createExtClient({ ...options, fetch: recorder.fetchFor("ext") }),
      unauthenticated: createExtClient({ baseUrl: authServer.url, retry: false, fetch: recorder.fetchFor("ext") }),
      c: createClientC({ ...options, fetch: recorder.fetchFor("c") }),
      client: new TrackerClient({ ...options, fetch: recorder.fetchByPath() }),
      fetch: recorder.fetchFor("ext"),
    };
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), authServer?.stop(), s3Server?.stop()]);
    fs.rmSync(artifacts, { recursive: true, force: true });
  });

  for (const scenario of scenarios) it(scenario.name, () => scenario.run(ctx));

  it("every answer matched its spec, and every ext operation was exercised with each documented status", () => {
    expect(recorder.violations()).toEqual([]);
    const rows = coverage(recorder.operations(["ext"]), recorder.exchanges);
    console.log(
      `\next.yaml contract coverage on ${kind} (exchanges per status; 500 and 503 are exempt):\n${coverageTable(rows)}\n`,
    );
    // Without an S3 server (TEST_S3_URL unset: not in CI), multipart uploads can only answer 501, 400 and 401.
    const missing = (r: (typeof rows)[number]) =>
      s3Destination || !MULTIPART.has(r.op.operationId) ? r.missing : r.missing.filter((s) => !S3_ONLY.has(s));
    expect(
      rows.filter((r) => missing(r).length > 0).map((r) => `${r.op.operationId}: ${missing(r).join(", ")}`),
    ).toEqual([]);
  });
});
