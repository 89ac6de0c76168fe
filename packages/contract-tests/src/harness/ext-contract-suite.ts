import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrackerClient } from "@tracker-ml/client";
import { createClient as createExtClient } from "@tracker-ml/client/ext";
import { createClient as createClientC } from "@tracker-ml/client/rev-c";
import type { ServerDatabase } from "@tracker/testing";
import { coverage, coverageTable } from "./coverage.js";
import type { ExtContext, ExtScenario } from "./ext-scenario.js";
import { Recorder } from "./recorder.js";
import { roundRobin } from "./round-robin.js";

const scenarioDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "ext-scenarios");

/** The scenarios of src/ext-scenarios/, one concern per `<concern>.scenario.ts`, by file name. */
export const extScenarios: ExtScenario[] = await Promise.all(
  fs
    .readdirSync(scenarioDir)
    .filter((f) => f.endsWith(".scenario.ts"))
    .sort()
    .map(
      async (f) =>
        ((await import(pathToFileURL(path.join(scenarioDir, f)).href)) as { scenario: ExtScenario }).scenario,
    ),
);

/** The servers a suite runs the scenarios against. */
export interface ExtServers {
  /**
   * Servers without authentication, all over one database and one artifacts destination; the
   * clients' requests go to each in turn (one server: every request to it).
   */
  urls: string[];
  /** A server over the same data started with TRACKER_AUTH_TOKEN = AUTH_TOKEN. */
  authUrl: string;
  /** A server whose artifacts destination is on S3 (when an S3 server is at hand: TEST_S3_URL). */
  s3Url?: string;
  /** The servers at `urls` keep their artifacts on S3, not in a local folder. */
  artifactsOnS3?: boolean;
  stop(): Promise<void>;
}

/**
 * Operations that answer some statuses only with an S3 artifacts destination (these, by operation),
 * and 501 only with a folder: MLflow's multipart uploads and presigned URLs.
 */
const S3_ONLY: Readonly<Record<string, readonly string[]>> = {
  createMultipartUpload: ["200", "404", "413"],
  completeMultipartUpload: ["200", "404", "413"],
  abortMultipartUpload: ["200", "404", "413"],
  createPresignedUploadUrl: ["200"],
  createPresignedDownloadUrl: ["200"],
  presignArtifactDownload: ["200", "404"],
};

/**
 * The ext.yaml contract (see ext-contract.test.ts): every scenario, then the check that every
 * answer matched its spec and that every ext operation was exercised with each documented status.
 */
export function extContractSuite(
  title: string,
  kind: ServerDatabase,
  start: () => Promise<ExtServers>,
  timeouts: { startMs?: number; scenarioMs?: number } = {},
): void {
  describe(title, () => {
    let recorder: Recorder;
    let servers: ExtServers | undefined;
    let ctx: ExtContext;

    beforeAll(async () => {
      servers = await start();
      recorder = new Recorder(roundRobin(servers.urls));
      const url = servers.urls[0]!;
      const options = { baseUrl: url, retry: false as const };
      ctx = {
        kind,
        url,
        authUrl: servers.authUrl,
        ...(servers.artifactsOnS3 ? { s3Url: servers.s3Url ?? url } : { folderUrl: url }),
        ...(servers.s3Url ? { s3Url: servers.s3Url } : {}),
        ext: createExtClient({ ...options, fetch: recorder.fetchFor("ext") }),
        unauthenticated: createExtClient({ baseUrl: servers.authUrl, retry: false, fetch: recorder.fetchFor("ext") }),
        c: createClientC({ ...options, fetch: recorder.fetchFor("c") }),
        client: new TrackerClient({ ...options, fetch: recorder.fetchByPath() }),
        fetch: recorder.fetchFor("ext"),
      };
    }, timeouts.startMs);
    afterAll(async () => {
      await servers?.stop();
    });

    for (const scenario of extScenarios) it(scenario.name, () => scenario.run(ctx), timeouts.scenarioMs);

    it("every answer matched its spec, and every ext operation was exercised with each documented status", () => {
      expect(recorder.violations()).toEqual([]);
      const rows = coverage(recorder.operations(["ext"]), recorder.exchanges);
      console.log(
        `\next.yaml contract coverage on ${kind} (exchanges per status; 500 and 503 are exempt):\n${coverageTable(rows)}\n`,
      );
      // Without an S3 server, these operations cannot answer their S3 statuses; without a folder, never 501.
      const missing = (r: (typeof rows)[number]) => {
        const s3Only = S3_ONLY[r.op.operationId];
        if (!s3Only) return r.missing;
        const exempt = new Set([...(ctx.s3Url ? [] : s3Only), ...(ctx.folderUrl ? [] : ["501"])]);
        return r.missing.filter((s) => !exempt.has(s));
      };
      expect(
        rows.filter((r) => missing(r).length > 0).map((r) => `${r.op.operationId}: ${missing(r).join(", ")}`),
      ).toEqual([]);
    });
  });
}
