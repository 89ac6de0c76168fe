import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { backendStore, rawRequest, startServerProcess, testDatabases, type ServerProcess } from "@tracker/testing";

/**
 * A SIGKILL of the server in the middle of an upload (issue 28, item 4): the half-written upload
 * stays on disk until the next start, which removes it; at no time can a client read it or name it,
 * and the artifact it was to become does not exist.
 */

const A = "/api/2.0/mlflow-artifacts/artifacts";
const ANNOUNCED = 100 << 20;
const SENT = 8 << 20;

/** Every file below `dir` (relative paths). */
function filesBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.lstatSync(path.join(dir, f), { throwIfNoEntry: false })?.isFile())
    .sort();
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(testDatabases())("an upload cut by a SIGKILL of the server (%s)", (kind) => {
  let server: ServerProcess | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    server?.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  it("leaves a temporary file no client can read or name, removed at the next start; the artifact is 404", {
    timeout: 180_000,
  }, async () => {
    const store = await backendStore(kind);
    cleanups.push(store.dispose);
    if (kind === "pglite") fs.cpSync(inject("pgliteTemplate"), path.join(store.uri, "pgdata"), { recursive: true });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-upload-crash-"));
    cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
    const destination = path.join(folder, "artifacts");
    const args = ["--backend-store-uri", store.uri, "--artifacts-destination", destination];
    server = await startServerProcess(args, { env: { ...store.env, LOG_LEVEL: "info" } });

    const socket = net.connect(server.port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.write(`PUT ${A}/crash/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${ANNOUNCED}\r\n\r\n`);
    socket.write(Buffer.alloc(SENT, 0x63));
    // Killed once part of the body is on disk.
    const written = () => filesBelow(folder).reduce((sum, f) => sum + fs.statSync(path.join(folder, f)).size, 0);
    await until(() => written() >= SENT / 2, 30_000, "half the sent bytes on disk");
    server.child.kill("SIGKILL");
    await server.exited;
    socket.destroy();
    const leftovers = filesBelow(folder);
    expect(leftovers.length, "the half-written upload is on disk after the SIGKILL").toBe(1);
    expect(leftovers[0]!.startsWith("artifacts/"), "it is not below the artifacts destination").toBe(false);

    server = await startServerProcess(args, { env: { ...store.env, LOG_LEVEL: "info" } });
    expect(filesBelow(folder), "removed at start-up").toEqual([]);
    expect(server.output()).toContain("removed the temporary files of uploads cut short by a crash");
    expect((await fetch(`${server.url}${A}/crash/big.bin`)).status).toBe(404);
    const [temp] = leftovers;
    for (const p of [`../${temp}`, `%2E%2E/${temp}`]) {
      expect((await rawRequest(server.port, "GET", `${A}/${p}`))?.status, p).toBe(400);
    }
    // The folder the upload was to land in exists (made before the body was read), empty.
    expect(await (await fetch(`${server.url}${A}?path=crash`)).json()).toEqual({});
  });
});
