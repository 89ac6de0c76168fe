import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { backendStore, startServerProcess, type ServerProcess } from "@tracker/testing";
import { testDatabases } from "@tracker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrackerClient } from "./node.js";

/**
 * End to end, as on a training machine: the server is its own process with its own folders, the
 * client works in a folder of its own and reaches the artifacts only through the server.
 */
describe.each(testDatabases())("artifacts through the server, end to end, on %s", (kind) => {
  let server: ServerProcess;
  let store: { uri: string; dispose(): Promise<void> };
  let serverDir: string;
  let training: string;
  let client: TrackerClient;

  beforeAll(async () => {
    serverDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-server-side-"));
    training = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-training-machine-"));
    store = await backendStore(kind);
    server = await startServerProcess([
      "--backend-store-uri",
      store.uri,
      "--artifacts-destination",
      path.join(serverDir, "artifacts"),
    ]);
    client = new TrackerClient({ baseUrl: server.url, retry: false });
  });
  afterAll(async () => {
    await server?.stop();
    await store?.dispose();
    for (const dir of [serverDir, training]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("uploads a file, a folder tree, an empty file and non-ASCII names; lists; downloads the same bytes; serves a registered model", async () => {
    expect(path.relative(serverDir, training).startsWith("..")).toBe(true);
    const experimentId = await client.createExperiment("e2e-artifacts");
    const run = await client.createRun(experimentId);
    const runId = run.info.run_id;
    expect(run.info.artifact_uri).toBe(`mlflow-artifacts:/${experimentId}/${runId}/artifacts`);

    const local = path.join(training, "outputs");
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) % 251;
    const files: Record<string, Buffer> = {
      "metrics.csv": Buffer.from("step,loss\n0,1.5\n1,0.7\n"),
      "empty.txt": Buffer.alloc(0),
      "模型 é/权重.bin": Buffer.from([1, 2, 3, 4]),
      "deep/a/b/c.json": Buffer.from('{"ok":true}'),
      "big.bin": big,
    };
    for (const [name, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(local, name)), { recursive: true });
      fs.writeFileSync(path.join(local, name), bytes);
    }
    fs.writeFileSync(path.join(training, "notes.md"), "# run notes\n");

    // A file by path (stored under its name), a folder tree in parallel, a Node stream, a Blob.
    expect(await client.uploadArtifact(runId, path.join(training, "notes.md"))).toBe("notes.md");
    const progress: number[] = [];
    const uploaded = await client.uploadArtifacts(runId, local, "outputs", {
      parallel: 3,
      onProgress: (p) => p.path === "outputs/big.bin" && progress.push(p.bytes),
    });
    expect(uploaded).toEqual(
      Object.keys(files)
        .map((f) => `outputs/${f}`)
        .sort(),
    );
    expect(progress.at(-1)).toBe(big.length);
    expect(await client.uploadArtifact(runId, Readable.from([Buffer.from("streamed")]), "logs/stream.log")).toBe(
      "logs/stream.log",
    );

    // The whole tree, through revision C's artifacts/list.
    const tree = await client.listArtifactTree(runId);
    expect(tree.filter((f) => !f.is_dir).map((f) => [f.path, f.file_size])).toEqual(
      [
        ["logs/stream.log", 8],
        ["notes.md", 12],
        ...Object.entries(files).map(([name, bytes]) => [`outputs/${name}`, bytes.length]),
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );

    // Download the folder into another place and compare every byte.
    const out = path.join(training, "downloaded");
    const written = await client.downloadArtifacts(runId, "outputs", out, { parallel: 4 });
    expect(written).toEqual(Object.keys(files).sort());
    for (const [name, bytes] of Object.entries(files))
      expect(fs.readFileSync(path.join(out, name)).equals(bytes), name).toBe(true);
    const single = Buffer.from(
      await new Response(await client.downloadArtifact(runId, "outputs/模型 é/权重.bin")).arrayBuffer(),
    );
    expect([...single]).toEqual([1, 2, 3, 4]);
    expect(await client.downloadArtifacts(runId, "notes.md", path.join(training, "one"))).toEqual(["notes.md"]);

    // Everything the server holds is below its artifacts destination, none of it in the training folder.
    expect(
      fs.existsSync(path.join(serverDir, "artifacts", experimentId, runId, "artifacts", "outputs", "big.bin")),
    ).toBe(true);

    // A model logged to the run, registered from runs:/<run_id>/model and fetched as the UI does.
    fs.mkdirSync(path.join(training, "model"));
    fs.writeFileSync(path.join(training, "model", "MLmodel"), "flavors:\n  python_function: {}\n");
    fs.writeFileSync(path.join(training, "model", "model.pkl"), Buffer.from([0x80, 0x04, 0x95]));
    await client.uploadArtifacts(runId, path.join(training, "model"), "model");
    await client.createRegisteredModel("e2e-model");
    const version = await client.createModelVersion("e2e-model", `runs:/${runId}/model`, { runId });
    for (const file of ["MLmodel", "model.pkl"]) {
      const res = await fetch(
        `${server.url}/model-versions/get-artifact?name=e2e-model&version=${version.version}&path=${file}`,
      );
      expect(res.status, file).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(training, "model", file))),
        file,
      ).toBe(true);
    }
    const viaUi = await fetch(
      `${server.url}/get-artifact?run_uuid=${runId}&path=${encodeURIComponent("outputs/模型 é/权重.bin")}`,
    );
    expect(viaUi.headers.get("content-disposition")).toContain("filename*=UTF-8''%E6%9D%83%E9%87%8D.bin");
  });
});
