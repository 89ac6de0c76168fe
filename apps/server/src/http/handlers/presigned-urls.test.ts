import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAt,
  type Api,
  artifactStoreConfig,
  call,
  databaseAndStoreCases,
  storedArtifacts,
  testDatabases,
  useTestServer,
} from "@tracker/testing";

/**
 * MLflow 3's presigned artifact URLs (spec/ext.yaml: createPresignedUploadUrl,
 * createPresignedDownloadUrl), through MLflow's paths as its clients send them. On every database,
 * with the artifacts destination a local folder (501) and, when TEST_S3_URL is set, an S3 bucket
 * (the whole round trip straight to and from the object store).
 */

interface Signed {
  presigned_url: string;
  headers: Record<string, string>;
  file_size?: number;
}

describe.each(databaseAndStoreCases(testDatabases()))("presigned artifact URLs on %s, %s store", (kind, store) => {
  const suite = useTestServer(kind, artifactStoreConfig(store));
  let mlflow: Api;
  let experimentId: string;
  let runId: string;
  beforeAll(async () => {
    mlflow = apiAt(suite.url, "2.0/mlflow");
    experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "presigned" })).body
      .experiment_id;
    runId = (await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId }))
      .body.run.info.run_id;
  });
  const upload = (body: Record<string, unknown>) => mlflow.post<Signed>("artifacts/presigned-upload-url", body);
  const download = (body: Record<string, unknown>) => mlflow.post<Signed>("artifacts/presigned-download-url", body);

  it("advertises presigned transfers in MLflow 3's server-info on S3 only (its clients then take them unasked)", async () => {
    for (const prefix of ["/api", "/ajax-api"]) {
      const res = await fetch(`${suite.url}${prefix}/3.0/mlflow/server-info`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        store_type: "SqlStore",
        workspaces_enabled: false,
        presigned_uploads_enabled: store === "s3",
        presigned_downloads_enabled: store === "s3",
      });
    }
  });

  it("refuses bad input with 400 and unknown runs and models with 404, before looking at the store", async () => {
    for (const op of [upload, download]) {
      for (const body of [
        { run_id: runId },
        { run_id: runId, path: "" },
        { run_id: runId, path: "../x.bin" },
        { run_id: runId, path: "/etc/passwd" },
        { run_id: runId, path: "a/%2E%2E/%2E%2E/x.bin" },
        { path: "x.bin" },
        { run_id: runId, model_id: "m-0", path: "x.bin" },
        { run_id: runId, path: "x.bin", expiration: 0 },
        { run_id: runId, path: "x.bin", expiration: 604801 },
        { run_id: runId, path: "x.bin", expiration: "soon" },
      ]) {
        const refused = await op(body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.body, JSON.stringify(body)).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
      }
      const missingRun = await op({ run_id: "0".repeat(32), path: "x.bin" });
      expect(missingRun.status).toBe(404);
      expect(missingRun.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
      expect((await op({ model_id: `m-${"0".repeat(32)}`, path: "x.bin" })).status).toBe(404);
    }
  });

  /** MLflow 3's multipart download of the proxied artifact service: GET mlflow-artifacts/presigned/<path>. */
  const proxied = (p: string) =>
    call<{ url: string; headers: Record<string, string>; file_size: number }>(
      suite.url,
      "GET",
      `/api/2.0/mlflow-artifacts/presigned/${p}`,
    );

  it.runIf(store === "folder")(
    "answers 501 NOT_IMPLEMENTED when the run's artifacts are in a local folder",
    async () => {
      for (const op of [upload, download]) {
        const refused = await op({ run_id: runId, path: "model/model.pkl" });
        expect(refused.status).toBe(501);
        expect(refused.body).toEqual({
          error_code: "NOT_IMPLEMENTED",
          message: `Presigned URLs are not supported for the artifact location 'mlflow-artifacts:/${experimentId}/${runId}/artifacts': its files are in a local folder of the server; upload and download through the artifact service instead`,
        });
      }
      const refused = await proxied(`${experimentId}/${runId}/artifacts/model/model.pkl`);
      expect(refused.status).toBe(501);
      expect(refused.body).toMatchObject({
        error_code: "NOT_IMPLEMENTED",
        message: expect.stringMatching(/^Multipart download is not supported for the current artifact repository/),
      });
    },
  );

  it.runIf(store === "s3")(
    "round trip: PUT bytes to the upload URL, GET them back identical from the download URL; the artifact service sees the file",
    async () => {
      const bytes = randomBytes(300_000);
      const signed = await upload({ run_id: runId, path: "model/weights.bin", expiration: "120" });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      expect(signed.body.headers).toEqual({});
      const url = new URL(signed.body.presigned_url);
      expect(url.searchParams.get("X-Amz-Expires")).toBe("120");
      const put = await fetch(url, { method: "PUT", body: bytes, headers: signed.body.headers });
      expect(put.status, await put.clone().text()).toBe(200);

      const got = await download({ run_id: runId, path: "model/weights.bin" });
      expect(got.status).toBe(200);
      expect(got.body.file_size).toBe(bytes.length);
      expect(new URL(got.body.presigned_url).searchParams.get("X-Amz-Expires")).toBe("300");
      const back = await fetch(got.body.presigned_url, { headers: got.body.headers });
      expect(back.status).toBe(200);
      expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);
      const part = await fetch(got.body.presigned_url, { headers: { Range: "bytes=10-19" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

      // The same file for the artifact service and the revisions' listing.
      const stored = storedArtifacts(suite.server.config.artifactsDestination);
      expect(await stored.files(`${experimentId}/${runId}/artifacts/model`)).toEqual(["weights.bin"]);
      const listed = await mlflow.get<{ files: unknown[] }>("artifacts/list", { run_id: runId, path: "model" });
      expect(listed.body.files).toEqual([{ path: "model/weights.bin", is_dir: false, file_size: bytes.length }]);
      const throughServer = await fetch(
        `${suite.url}/api/2.0/mlflow-artifacts/artifacts/${experimentId}/${runId}/artifacts/model/weights.bin`,
      );
      expect(Buffer.from(await throughServer.arrayBuffer()).equals(bytes)).toBe(true);

      // MLflow 3's client with the proxied artifact service asks by artifact path, and reads ranges.
      const viaService = await proxied(`${experimentId}/${runId}/artifacts/model/weights.bin`);
      expect(viaService.status, JSON.stringify(viaService.body)).toBe(200);
      expect(viaService.body).toMatchObject({ headers: {}, file_size: bytes.length });
      const tail = await fetch(viaService.body.url, { headers: { Range: `bytes=${bytes.length - 5}-` } });
      expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);
      expect((await proxied(`${experimentId}/${runId}/artifacts/model/none.bin`)).status).toBe(404);
      expect((await proxied(`${experimentId}/${runId}/artifacts/model`)).status).toBe(404);
      expect((await proxied(`${experimentId}/${runId}/artifacts/%252E%252E/x`)).status).toBe(400);

      // A URL is for its key and its method only.
      expect((await fetch(url.href.replace("weights.bin", "other.bin"), { method: "PUT", body: "x" })).status).toBe(
        403,
      );
      expect((await fetch(got.body.presigned_url, { method: "PUT", body: "x" })).status).toBe(403);
      expect(await stored.files(`${experimentId}/${runId}/artifacts/model`)).toEqual(["weights.bin"]);
    },
  );

  it.runIf(store === "s3")(
    "signs a directory's name or a path below a file (S3 has no folders); refuses a missing file and a deleted run's uploads; an expired URL is refused by the store",
    async () => {
      const first = await upload({ run_id: runId, path: "dir/a.txt" });
      expect((await fetch(first.body.presigned_url, { method: "PUT", body: "a" })).status).toBe(200);
      expect((await upload({ run_id: runId, path: "dir" })).status).toBe(200);
      expect((await upload({ run_id: runId, path: "dir/a.txt/b.txt" })).status).toBe(200);
      expect((await download({ run_id: runId, path: "dir" })).status).toBe(404);
      const missing = await download({ run_id: runId, path: "dir/none.txt" });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });

      // Valid for one second: well after it, the store refuses it and nothing is stored.
      const brief = await upload({ run_id: runId, path: "dir/late.txt", expiration: 1 });
      expect(brief.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect((await fetch(brief.body.presigned_url, { method: "PUT", body: "late" })).status).toBe(403);
      expect((await download({ run_id: runId, path: "dir/late.txt" })).status).toBe(404);

      const doomed = (
        await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: experimentId })
      ).body.run.info.run_id;
      const kept = await upload({ run_id: doomed, path: "kept.txt" });
      expect((await fetch(kept.body.presigned_url, { method: "PUT", body: "kept" })).status).toBe(200);
      await mlflow.post("runs/delete", { run_id: doomed });
      const refused = await upload({ run_id: doomed, path: "new.txt" });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ message: expect.stringContaining("must be in the 'active' state") });
      // Reading a deleted run's artifacts stays possible, as through the artifact service.
      const read = await download({ run_id: doomed, path: "kept.txt" });
      expect(await (await fetch(read.body.presigned_url)).text()).toBe("kept");
    },
  );

  it.runIf(store === "s3")("signs URLs for a logged model's artifacts (model_id)", async () => {
    const model = (
      await mlflow.post<{ model: { info: { model_id: string; artifact_uri: string } } }>("logged-models", {
        experiment_id: experimentId,
        name: "m",
      })
    ).body.model.info;
    const signed = await upload({ model_id: model.model_id, path: "MLmodel" });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await fetch(signed.body.presigned_url, { method: "PUT", body: "flavors: {}\n" })).status).toBe(200);
    const files = await mlflow.get<{ files: unknown[] }>(`logged-models/${model.model_id}/artifacts/directories`);
    expect(files.body.files).toEqual([{ path: "MLmodel", is_dir: false, file_size: 12 }]);
    const got = await download({ model_id: model.model_id, path: "MLmodel" });
    expect(await (await fetch(got.body.presigned_url)).text()).toBe("flavors: {}\n");
  });
});

describe.runIf(process.env.TEST_S3_URL).each(testDatabases())(
  "presigned artifact URLs with --no-serve-artifacts and an s3:// default artifact root (%s)",
  (kind) => {
    const root = `${(process.env.TEST_S3_URL ?? "").replace(/\/+$/, "")}/root-${randomUUID()}`;
    const suite = useTestServer(kind, { serveArtifacts: false, artifactRoot: root, s3PathStyle: true });

    it("signs URLs for runs whose s3:// artifact URIs lie below the root, as MLflow's SageMaker clients use them", async () => {
      const mlflow = apiAt(suite.url, "2.0/mlflow");
      const experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "direct" })).body
        .experiment_id;
      const run = (
        await mlflow.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", {
          experiment_id: experimentId,
        })
      ).body.run.info;
      expect(run.artifact_uri).toBe(`${root}/${experimentId}/${run.run_id}/artifacts`);
      const signed = await mlflow.post<Signed>("artifacts/presigned-upload-url", { run_id: run.run_id, path: "a.txt" });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      expect((await fetch(signed.body.presigned_url, { method: "PUT", body: "direct" })).status).toBe(200);
      const got = await mlflow.post<Signed>("artifacts/presigned-download-url", { run_id: run.run_id, path: "a.txt" });
      expect(got.body.file_size).toBe(6);
      expect(await (await fetch(got.body.presigned_url)).text()).toBe("direct");
      // The artifact service itself stays off.
      expect((await fetch(`${suite.url}/api/2.0/mlflow-artifacts/artifacts?path=x`)).status).toBe(503);
      // Nor does MLflow 3's server-info send clients to the artifact service's presigned paths.
      expect(await (await fetch(`${suite.url}/api/3.0/mlflow/server-info`)).json()).toMatchObject({
        presigned_uploads_enabled: false,
        presigned_downloads_enabled: false,
      });

      // A run located elsewhere (another bucket's URI) is not the server's to sign for.
      const elsewhere = (
        await mlflow.post<{ experiment_id: string }>("experiments/create", {
          name: "elsewhere",
          artifact_location: "s3://some-other-bucket/x",
        })
      ).body.experiment_id;
      const foreign = (
        await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: elsewhere })
      ).body.run.info.run_id;
      const refused = await mlflow.post("artifacts/presigned-upload-url", { run_id: foreign, path: "a.txt" });
      expect(refused.status).toBe(501);
      expect(refused.body).toMatchObject({
        error_code: "NOT_IMPLEMENTED",
        message: expect.stringContaining("the server does not hold its files"),
      });
    });
  },
);
