import { expect } from "vitest";
import type { ExtScenario } from "../harness/ext-scenario.js";

const MPU = "/api/2.0/mlflow-artifacts/mpu";

/**
 * MLflow 2.x's multipart uploads: 501 on a folder destination (the contract server's, unless its
 * servers keep artifacts on S3), and, on the server with an S3 destination (when TEST_S3_URL is set), the whole round trip with parts PUT
 * straight to the object store, 404 for an unknown upload and 413 past --max-artifact-size.
 */
export const scenario: ExtScenario = {
  name: "multipart uploads: 501 on a folder; create, PUT parts to S3, complete, abort, 404 and 413 on S3",
  async run({ url, authUrl, s3Url, folderUrl, client, fetch }) {
    const experimentId = await client.createExperiment(`mpu-${Date.now()}`);
    const runId = (await client.createRun(experimentId)).info.run_id;
    const dir = `${experimentId}/${runId}/artifacts/big`;
    const post = (base: string, op: string, body: unknown, path = dir) =>
      fetch(`${base}${MPU}/${op}/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const bodies: Record<string, unknown> = {
      create: { path: "/home/me/weights.bin", num_parts: 2 },
      complete: { path: "weights.bin", upload_id: "x", parts: [{ part_number: 1, etag: '"e"' }] },
      abort: { path: "weights.bin", upload_id: "x" },
    };
    for (const [op, body] of Object.entries(bodies)) {
      if (folderUrl) {
        const refused = await post(folderUrl, op, body);
        expect(refused.status, op).toBe(501);
        expect(await refused.json()).toMatchObject({ error_code: "NOT_IMPLEMENTED" });
      }
      expect((await post(url, op, {})).status, op).toBe(400);
      expect((await post(authUrl, op, body)).status, op).toBe(401);
    }
    if (!s3Url) return;

    // (set-up on another spec's path: not recorded)
    const s3Run = await globalThis.fetch(`${s3Url}/api/2.0/mlflow/runs/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ experiment_id: "0" }),
    });
    const s3RunId = ((await s3Run.json()) as { run: { info: { run_id: string } } }).run.info.run_id;
    const s3Dir = `0/${s3RunId}/artifacts/big`;
    const created = await post(s3Url, "create", { path: "/home/me/weights.bin", num_parts: 1 }, s3Dir);
    expect(created.status).toBe(200);
    const { upload_id, credentials } = (await created.json()) as {
      upload_id: string;
      credentials: { url: string; part_number: number }[];
    };
    const sent = await globalThis.fetch(credentials[0]!.url, { method: "PUT", body: "weights" });
    expect(sent.status).toBe(200);
    const parts = [{ part_number: 1, etag: sent.headers.get("etag")! }];
    expect((await post(s3Url, "complete", { path: "weights.bin", upload_id, parts }, s3Dir)).status).toBe(200);
    expect(await (await fetch(`${s3Url}/api/2.0/mlflow-artifacts/artifacts/${s3Dir}/weights.bin`)).text()).toBe(
      "weights",
    );
    expect((await post(s3Url, "abort", { path: "weights.bin", upload_id }, s3Dir)).status).toBe(200);
    expect((await post(s3Url, "complete", { path: "weights.bin", upload_id, parts }, s3Dir)).status).toBe(404);
    expect((await post(s3Url, "create", { path: "a/.." }, s3Dir)).status).toBe(400);

    // Past the server's 1 MiB limit: the parts are counted at completion, the upload aborted.
    const big = (await (await post(s3Url, "create", { path: "big.bin" }, s3Dir)).json()) as {
      upload_id: string;
      credentials: { url: string }[];
    };
    const bigPart = await globalThis.fetch(big.credentials[0]!.url, {
      method: "PUT",
      body: new Uint8Array(2 * 1024 * 1024),
    });
    const refused = await post(
      s3Url,
      "complete",
      { path: "big.bin", upload_id: big.upload_id, parts: [{ part_number: 1, etag: bigPart.headers.get("etag")! }] },
      s3Dir,
    );
    expect(refused.status).toBe(413);
    expect((await fetch(`${s3Url}/api/2.0/mlflow-artifacts/artifacts/${s3Dir}/big.bin`)).status).toBe(404);
  },
};
