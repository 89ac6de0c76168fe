import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverProcessDatabases } from "@tracker/testing";
import { extContractSuite } from "./harness/ext-contract-suite.js";
import { AUTH_TOKEN, startContractServer } from "./harness/servers.js";

/**
 * The contract of tracker's own operations (spec/ext.yaml), as contract.test.ts is for the
 * revisions: the published client against the real server process, every answer validated by Ajv
 * against ext.yaml, and every ext operation exercised with every status it documents. The
 * scenarios live one concern per file in src/ext-scenarios/; multi-server-contract.test.ts runs
 * the same scenarios across three servers. With an S3 server at hand (TEST_S3_URL), a third server
 * keeps its artifacts there, for the operations only an S3 destination answers (multipart uploads).
 */

const s3Destination = process.env.TEST_S3_URL?.replace(/\/+$/, "");

for (const kind of serverProcessDatabases()) {
  extContractSuite(`contract: client x server x ext.yaml on ${kind}`, kind, async () => {
    // Artifacts in a folder of their own; uploads above 1 MiB are refused (the scenario proves the 413).
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-contract-artifacts-"));
    const env = { TRACKER_ARTIFACTS_DESTINATION: artifacts, TRACKER_MAX_ARTIFACT_SIZE: "1MiB" };
    const [server, authServer, s3Server] = await Promise.all([
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
    return {
      urls: [server.url],
      authUrl: authServer.url,
      ...(s3Server ? { s3Url: s3Server.url } : {}),
      async stop() {
        await Promise.all([server.stop(), authServer.stop(), s3Server?.stop()]);
        fs.rmSync(artifacts, { recursive: true, force: true });
      },
    };
  });
}
