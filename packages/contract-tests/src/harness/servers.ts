import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backendStore, startServerProcess, type ServerProcess } from "@tracker/testing";
import type { ServerDatabase } from "@tracker/testing";

/** A real server process, built and started as users run it, over a fresh database. */
export interface ContractServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the server over a fresh database. With `localArtifacts`, experiments get local artifact
 * folders (`--default-artifact-root`, in a temporary folder) that a test may write into directly,
 * as a client on the server's machine does; otherwise artifacts go through the server.
 */
export async function startContractServer(
  kind: ServerDatabase,
  env: NodeJS.ProcessEnv = {},
  localArtifacts = false,
): Promise<ContractServer> {
  const store = await backendStore(kind);
  const artifactRoot = localArtifacts
    ? fs.mkdtempSync(path.join(os.tmpdir(), "tracker-contract-artifacts-"))
    : undefined;
  const removeRoot = () => artifactRoot && fs.rmSync(artifactRoot, { recursive: true, force: true });
  let server: ServerProcess;
  try {
    server = await startServerProcess(
      ["--backend-store-uri", store.uri, ...(artifactRoot ? ["--default-artifact-root", artifactRoot] : [])],
      { env: { ...store.env, ...env } },
    );
  } catch (err) {
    await store.dispose();
    removeRoot();
    throw err;
  }
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await store.dispose();
      removeRoot();
    },
  };
}

export const AUTH_TOKEN = "contract-test-token";
