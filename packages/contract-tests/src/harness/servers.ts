import { backendStore, startServerProcess, type ServerProcess } from "@tracker/testing";
import type { TestDatabase } from "@tracker/testing";

/** A real server process, built and started as users run it, over a fresh database. */
export interface ContractServer {
  url: string;
  stop(): Promise<void>;
}

export async function startContractServer(kind: TestDatabase, env: NodeJS.ProcessEnv = {}): Promise<ContractServer> {
  const store = await backendStore(kind);
  let server: ServerProcess;
  try {
    server = await startServerProcess(["--backend-store-uri", store.uri], { env });
  } catch (err) {
    await store.dispose();
    throw err;
  }
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await store.dispose();
    },
  };
}

export const AUTH_TOKEN = "contract-test-token";
