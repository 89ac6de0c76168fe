import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendStore, startServerProcess, type ServerProcess } from "@tracker/testing";
import { testDatabases } from "@tracker/testing";

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "scripts", "curl-session.sh");

describe.each(testDatabases())("a user's curl session (scripts/curl-session.sh) on %s", (kind) => {
  let server: ServerProcess;
  let store: Awaited<ReturnType<typeof backendStore>>;
  beforeAll(async () => {
    store = await backendStore(kind);
    server = await startServerProcess(["--backend-store-uri", store.uri]);
  });
  afterAll(async () => {
    await server?.stop();
    await store?.dispose();
  });

  it("runs end to end", async () => {
    const { stdout } = await promisify(execFile)("bash", [script, server.url], { timeout: 120_000 });
    expect(stdout).toMatch(/^session ok/m);
  }, 150_000);
});
