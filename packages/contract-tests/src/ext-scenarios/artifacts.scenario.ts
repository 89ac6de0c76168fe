import { createHash } from "node:crypto";
import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

const A = "/api/2.0/mlflow-artifacts/artifacts";

/** Revalidation as browsers send it (fetch would add `Cache-Control: no-cache`, which forces a 200). */
const revalidate = (etag: string) => ({ "If-None-Match": etag, "Cache-Control": "max-age=0" });

export const scenario: ExtScenario = {
  name: "artifact service: upload, list, download (Range, 304), delete, browser downloads, every documented status",
  async run({ url, authUrl, ext, unauthenticated, client, fetch }) {
    const experimentId = await client.createExperiment(`artifacts-${Date.now()}`);
    const run = await client.createRun(experimentId);
    const runId = run.info.run_id;
    const root = await client.artifactServicePath(runId);
    expect(root).toBe(`${experimentId}/${runId}/artifacts`);

    // The ergonomic client: upload (bytes, a named Blob), list the tree, download.
    expect(await client.uploadArtifact(runId, new TextEncoder().encode("0123456789"), "data/digits.txt")).toBe(
      "data/digits.txt",
    );
    expect(await client.uploadArtifact(runId, new File(["flavors: {}\n"], "MLmodel"), "model")).toBe("model/MLmodel");
    expect((await client.listArtifactTree(runId)).map((f) => f.path)).toEqual([
      "data",
      "data/digits.txt",
      "model",
      "model/MLmodel",
    ]);
    expect(await new Response(await client.downloadArtifact(runId, "data/digits.txt")).text()).toBe("0123456789");

    // uploadArtifact: 200 (with a digest), 400 (digest mismatch, traversal), 401, 413.
    const body = "checked";
    const md5 = createHash("md5").update(body).digest("base64");
    const put = (path: string, init: RequestInit = {}) => fetch(`${url}${A}/${path}`, { method: "PUT", body, ...init });
    expect((await put(`${root}/checked.txt`, { headers: { "Content-MD5": md5 } })).status).toBe(200);
    expect(
      (await put(`${root}/bad.txt`, { headers: { "Content-MD5": createHash("md5").update("other").digest("base64") } }))
        .status,
    ).toBe(400);
    // (fetch resolves `..` and `%2E%2E` itself: a backslash and a NUL stand for the bad paths here)
    expect((await put(`${root}/a%5C..%5C..%5Cescape.txt`)).status).toBe(400);
    expect((await fetch(`${authUrl}${A}/${root}/x.txt`, { method: "PUT", body })).status).toBe(401);
    const tooLarge = await put(`${root}/large.bin`, { body: new Uint8Array(2 * 1024 * 1024) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error_code: "REQUEST_TOO_LARGE" });

    // listArtifactDirectory: 200 (a directory; {} for a file), 400, 401.
    const listed = await ext.GET("/api/2.0/mlflow-artifacts/artifacts", {
      params: { query: { path: `${root}/data` } },
    });
    expect(listed.data).toEqual({ files: [{ path: "digits.txt", is_dir: false, file_size: 10 }] });
    expect(
      (await ext.GET("/api/2.0/mlflow-artifacts/artifacts", { params: { query: { path: `${root}/data/digits.txt` } } }))
        .data,
    ).toEqual({});
    expect(
      (await ext.GET("/api/2.0/mlflow-artifacts/artifacts", { params: { query: { path: "/etc" } } })).response.status,
    ).toBe(400);
    expect(
      (await unauthenticated.GET("/api/2.0/mlflow-artifacts/artifacts", { params: { query: { path: root } } })).response
        .status,
    ).toBe(401);

    // downloadArtifact: 200, 206, 304, 400, 401, 404, 416.
    const file = `${url}${A}/${root}/data/digits.txt`;
    const whole = await fetch(file);
    expect(whole.status).toBe(200);
    const etag = whole.headers.get("etag")!;
    const part = await fetch(file, { headers: { Range: "bytes=3-5" } });
    expect([part.status, await part.text()]).toEqual([206, "345"]);
    expect((await fetch(file, { headers: revalidate(etag) })).status).toBe(304);
    expect((await fetch(file, { headers: { Range: "bytes=100-200" } })).status).toBe(416);
    expect((await fetch(`${url}${A}/${root}/x%00y`)).status).toBe(400);
    expect((await fetch(`${url}${A}/${root}/missing.txt`)).status).toBe(404);
    expect((await fetch(`${authUrl}${A}/${root}/data/digits.txt`)).status).toBe(401);

    // getRunArtifactFile (/get-artifact): 200, 206, 304, 400, 401, 404.
    const browser = (query: string, init?: RequestInit, base = url) => fetch(`${base}/get-artifact?${query}`, init);
    const q = `run_uuid=${runId}&path=data%2Fdigits.txt`;
    const fromUi = await browser(q);
    expect([fromUi.status, await fromUi.text()]).toEqual([200, "0123456789"]);
    expect((await browser(q, { headers: { Range: "bytes=0-0" } })).status).toBe(206);
    expect((await browser(q, { headers: revalidate(fromUi.headers.get("etag")!) })).status).toBe(304);
    expect((await browser(`run_uuid=${runId}&path=..%2F..%2Fx`)).status).toBe(400);
    expect((await browser(`run_uuid=${runId}&path=nope.txt`)).status).toBe(404);
    expect((await browser(q, undefined, authUrl)).status).toBe(401);

    // getModelVersionArtifactFile (/model-versions/get-artifact), a `runs:/` source: 200, 206, 304, 400, 401, 404.
    const name = `artifact-model-${Date.now()}`;
    await client.createRegisteredModel(name);
    const version = await client.createModelVersion(name, `runs:/${runId}/model`, { runId });
    const mv = (path: string, init?: RequestInit, base = url) =>
      fetch(
        `${base}/model-versions/get-artifact?name=${encodeURIComponent(name)}&version=${version.version}&path=${path}`,
        init,
      );
    const mlmodel = await mv("MLmodel");
    expect([mlmodel.status, await mlmodel.text()]).toEqual([200, "flavors: {}\n"]);
    expect((await mv("MLmodel", { headers: { Range: "bytes=0-6" } })).status).toBe(206);
    expect((await mv("MLmodel", { headers: revalidate(mlmodel.headers.get("etag")!) })).status).toBe(304);
    expect((await mv("..%2Fdata%2Fdigits.txt")).status).toBe(400);
    expect((await mv("nothing")).status).toBe(404);
    expect((await mv("MLmodel", undefined, authUrl)).status).toBe(401);

    // deleteArtifacts: 200 (recursive; a missing path too), 400, 401.
    expect((await fetch(`${url}${A}/${root}/data`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(`${url}${A}/${root}/data`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(`${url}${A}/${root}/a%5Cb`, { method: "DELETE" })).status).toBe(400);
    expect((await fetch(`${authUrl}${A}/${root}/model`, { method: "DELETE" })).status).toBe(401);
    expect((await client.listArtifactTree(runId)).map((f) => f.path)).toEqual([
      "checked.txt",
      "model",
      "model/MLmodel",
    ]);
  },
};
