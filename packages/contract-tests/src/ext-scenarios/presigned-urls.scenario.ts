import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

const UPLOAD = "/api/2.0/tracker/artifacts/presigned-upload-url";
const DOWNLOAD = "/api/2.0/tracker/artifacts/presigned-download-url";
const PROXIED = "/api/2.0/mlflow-artifacts/presigned";

/**
 * MLflow 3's presigned artifact URLs (by run or model, and by path of the artifact service for its
 * multipart download): 400 and 404 everywhere, 501 on a folder destination (the
 * contract server's, unless its servers keep artifacts on S3), and, on the server with an S3
 * destination (when TEST_S3_URL is set), a file PUT to the upload URL and read back from the
 * download URL, straight to and from the object store.
 */
export const scenario: ExtScenario = {
  name: "presigned URLs: 400 and 404; 501 on a folder; upload to and download from S3 directly",
  async run({ url, authUrl, s3Url, folderUrl, client, ext, unauthenticated, fetch }) {
    const runId = (await client.createRun(await client.createExperiment(`presign-${Date.now()}`))).info.run_id;
    for (const path of [UPLOAD, DOWNLOAD] as const) {
      const bad = await ext.POST(path, { body: { run_id: runId, path: "../outside.bin" } });
      expect(bad.response.status, path).toBe(400);
      const neither = await ext.POST(path, { body: { path: "model.pkl" } });
      expect(neither.response.status, path).toBe(400);
      const missing = await ext.POST(path, { body: { run_id: "0".repeat(32), path: "model.pkl" } });
      expect(missing.response.status, path).toBe(404);
      const anonymous = await unauthenticated.POST(path, { body: { run_id: runId, path: "model.pkl" } });
      expect(anonymous.response.status, path).toBe(401);
      if (folderUrl) {
        const refused = await ext.POST(path, { body: { run_id: runId, path: "model.pkl" } });
        expect(refused.response.status, path).toBe(501);
        expect(refused.error).toMatchObject({ error_code: "NOT_IMPLEMENTED" });
      }
    }
    const dir = `0/${runId}/artifacts`;
    expect((await fetch(`${url}${PROXIED}/${dir}/%252E%252E/x.bin`)).status).toBe(400);
    expect((await fetch(`${authUrl}${PROXIED}/${dir}/model.pkl`)).status).toBe(401);
    if (folderUrl) {
      const refused = await fetch(`${folderUrl}${PROXIED}/${dir}/model.pkl`);
      expect(refused.status).toBe(501);
      expect(await refused.json()).toMatchObject({ error_code: "NOT_IMPLEMENTED" });
    }
    if (!s3Url) return;

    // (set-up on another spec's path: not recorded)
    const created = await globalThis.fetch(`${s3Url}/api/2.0/mlflow/runs/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ experiment_id: "0" }),
    });
    const s3RunId = ((await created.json()) as { run: { info: { run_id: string } } }).run.info.run_id;
    const post = (path: string, body: unknown) =>
      fetch(`${s3Url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const signed = (await (
      await post(UPLOAD, { run_id: s3RunId, path: "model/weights.bin", expiration: 60 })
    ).json()) as { presigned_url: string; headers?: Record<string, string> };
    const sent = await globalThis.fetch(signed.presigned_url, {
      method: "PUT",
      body: "weights",
      headers: signed.headers ?? {},
    });
    expect(sent.status).toBe(200);
    const answer = await post(DOWNLOAD, { run_id: s3RunId, path: "model/weights.bin" });
    expect(answer.status).toBe(200);
    const got = (await answer.json()) as { presigned_url: string; file_size: number };
    expect(got.file_size).toBe(7);
    expect(await (await globalThis.fetch(got.presigned_url)).text()).toBe("weights");
    expect((await post(DOWNLOAD, { run_id: s3RunId, path: "model/none.bin" })).status).toBe(404);
    const proxied = await fetch(`${s3Url}${PROXIED}/0/${s3RunId}/artifacts/model/weights.bin`);
    expect(proxied.status).toBe(200);
    const signedGet = (await proxied.json()) as { url: string; file_size: number };
    expect(signedGet.file_size).toBe(7);
    expect(await (await globalThis.fetch(signedGet.url)).text()).toBe("weights");
    expect((await fetch(`${s3Url}${PROXIED}/0/${s3RunId}/artifacts/model/none.bin`)).status).toBe(404);
  },
};
