import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  artifactStoreConfig,
  call,
  chunked,
  databaseAndStoreCases,
  rawRequest,
  type StoredArtifacts,
  startTestServer,
  storedArtifacts,
  testArtifactStores,
  testDatabases,
  trackingApi,
  useTestServer,
} from "@tracker/testing";

/**
 * The artifact service (spec/ext.yaml, tag Artifacts and Browser downloads): the mlflow-artifacts
 * API as MLflow clients use it, and every case where tracker does better than MLflow's proxy
 * (see shared/mlflow-artifacts-wire-facts.md, section 5). On every database, with the artifacts
 * destination a local folder and, when TEST_S3_URL is set, an S3 bucket (the cases that need
 * symbolic links or empty folders only on the folder).
 */

const A = "/api/2.0/mlflow-artifacts/artifacts";

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
}

describe.each(databaseAndStoreCases(testDatabases()))("artifact service on %s, %s store", (kind, store) => {
  const suite = useTestServer(kind, artifactStoreConfig(store));
  const onFolder = store === "folder";
  let dest: string;
  let stored: StoredArtifacts;
  let outside: string;
  let exp: string;
  let runId: string;
  let base: string; // `<exp>/<run>/artifacts`
  const url = (p: string) => `${suite.url}${A}/${p}`;
  const put = (p: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url(p), { method: "PUT", body, headers });

  beforeAll(async () => {
    dest = suite.server.config.artifactsDestination;
    stored = storedArtifacts(dest);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-victim-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "top secret");
    exp = (await suite.api.post<{ experiment_id: string }>("experiments/create", { name: "artifacts" })).body
      .experiment_id;
    const run = (
      await suite.api.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", {
        experiment_id: exp,
      })
    ).body.run.info;
    runId = run.run_id;
    expect(run.artifact_uri).toBe(`mlflow-artifacts:/${exp}/${runId}/artifacts`);
    base = `${exp}/${runId}/artifacts`;
  });
  afterAll(async () => {
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("stores, lists one level (basenames, is_dir, file_size; {} for files and missing paths) and streams back", async () => {
    expect((await put(`${base}/sub/a.csv`, "1,2\n3,4\n")).status).toBe(200);
    expect(await (await put(`${base}/sub/nested/b.bin`, Buffer.from([0, 1, 2]))).json()).toEqual({});
    expect((await put(`${base}/empty.txt`, "")).status).toBe(200);
    expect((await put(`${base}/h%C3%A9llo%20w%C3%B6rld.txt`, "unicode")).status).toBe(200);
    // (S3 has no empty folders)
    if (onFolder) fs.mkdirSync(path.join(dest, base, "empty-dir"), { recursive: true });
    const list = async (p: string) => (await fetch(`${suite.url}${A}?path=${encodeURIComponent(p)}`)).json();
    expect(await list(base)).toEqual({
      files: [
        ...(onFolder ? [{ path: "empty-dir", is_dir: true }] : []),
        { path: "empty.txt", is_dir: false, file_size: 0 },
        { path: "héllo wörld.txt", is_dir: false, file_size: 7 },
        { path: "sub", is_dir: true },
      ],
    });
    expect(await list(`${base}/sub/`)).toEqual({
      files: [
        { path: "a.csv", is_dir: false, file_size: 8 },
        { path: "nested", is_dir: true },
      ],
    });
    for (const p of [`${base}/sub/a.csv`, `${base}/nope`, `${base}/empty-dir`]) expect(await list(p)).toEqual({});
    expect(
      await (
        await fetch(`/ajax-api/2.0/mlflow-artifacts/artifacts?path=${encodeURIComponent(base)}`, {
          base: suite.url,
        } as never).catch(() =>
          fetch(`${suite.url}/ajax-api/2.0/mlflow-artifacts/artifacts?path=${encodeURIComponent(base)}`),
        )
      ).json(),
    ).toMatchObject({ files: expect.any(Array) });
    const got = await fetch(url(`${base}/sub/nested/b.bin`));
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(Buffer.from([0, 1, 2]));
    expect(got.headers.get("content-length")).toBe("3");
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect((await fetch(url(`${base}/empty.txt`))).headers.get("content-length")).toBe("0");
    const unicode = await fetch(url(`${base}/h%C3%A9llo%20w%C3%B6rld.txt`));
    expect(await unicode.text()).toBe("unicode");
    expect(unicode.headers.get("content-disposition")).toContain("filename*=UTF-8''h%C3%A9llo%20w%C3%B6rld.txt");
    // An existing file is replaced.
    expect((await put(`${base}/sub/a.csv`, "new")).status).toBe(200);
    expect(await (await fetch(url(`${base}/sub/a.csv`))).text()).toBe("new");
  });

  it("accepts chunked uploads (an empty file as MLflow's client sends it, and a large one) and keeps connections alive", async () => {
    const empty = await rawRequest(
      suite.server.port,
      "PUT",
      `${A}/${base}/chunked/empty`,
      { "Transfer-Encoding": "chunked" },
      chunked(),
    );
    expect(empty?.status).toBe(200);
    const data = Buffer.alloc(2500, 7);
    const big = await rawRequest(
      suite.server.port,
      "PUT",
      `${A}/${base}/chunked/big`,
      { "Transfer-Encoding": "chunked" },
      chunked(data.subarray(0, 1000), data.subarray(1000)),
    );
    expect(big?.status).toBe(200);
    expect(big?.headers.connection).toBe("keep-alive");
    expect(await stored.read(`${base}/chunked/big`)).toEqual(data);
    expect((await stored.read(`${base}/chunked/empty`))?.length).toBe(0);
  });

  it("refuses every path leading out of the destination with 400, and touches nothing outside", async () => {
    if (onFolder) {
      fs.mkdirSync(path.join(dest, base, "links"), { recursive: true });
      fs.symlinkSync(outside, path.join(dest, base, "links", "out-dir"));
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dest, base, "links", "out-file"));
    }
    const victim = onFolder ? path.relative(dest, outside) : "victim";
    const escapes = [
      `..`,
      `../${victim}/secret.txt`,
      `${base}/../../../../${victim}/secret.txt`,
      `%2E%2E/${victim}/secret.txt`,
      `%2e%2e%2f${victim}%2fsecret.txt`,
      `..%2F${victim}%2Fsecret.txt`,
      `${base}/%252E%252E/x`,
      `${base}/a%5C..%5C..%5Cx`,
      `${base}/x%00y`,
      ...(onFolder ? [`${base}/links/out-dir/secret.txt`, `${base}/links/out-file`] : []),
    ];
    for (const p of escapes) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const answer = await rawRequest(
          suite.server.port,
          method,
          `${A}/${p}`,
          method === "PUT" ? { "Content-Length": 4 } : {},
          method === "PUT" ? "evil" : "",
        );
        expect(answer?.status, `${method} ${p}: ${answer?.text}`).toBe(400);
        expect(JSON.parse(answer!.text)).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
        expect(answer!.text).not.toContain(suite.server.dataDir);
      }
    }
    for (const p of ["..", "/etc", `${base}/../..`, ...(onFolder ? [`${base}/links/out-dir`] : []), "a\\b", "%2E%2E"]) {
      const answer = await rawRequest(suite.server.port, "GET", `${A}?path=${encodeURIComponent(p)}`);
      expect(answer?.status, `list ${p}`).toBe(400);
    }
    for (const q of [
      `run_uuid=${runId}&path=../../../../${victim}/secret.txt`,
      `run_uuid=${runId}&path=/etc/hostname`,
      ...(onFolder ? [`run_uuid=${runId}&path=links/out-file`] : []),
    ]) {
      expect((await rawRequest(suite.server.port, "GET", `/get-artifact?${q.replace(/\//g, "%2F")}`))?.status, q).toBe(
        400,
      );
    }
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret");
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("answers a missing file or a directory with 404, never showing server paths", async () => {
    for (const p of [`${base}/missing.txt`, `${base}/sub`, `999/${runId}/artifacts/x`]) {
      const res = await fetch(url(p));
      expect(res.status, p).toBe(404);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
      expect(body).not.toContain(suite.server.dataDir);
    }
  });

  it("stores nothing when the body is shorter than its Content-Length or the connection is cut", async () => {
    const cut = await rawRequest(
      suite.server.port,
      "PUT",
      `${A}/${base}/cut/short.txt`,
      { "Content-Length": 1000 },
      "0123456789",
      "end",
    );
    if (cut) expect(cut.status).toBe(400);
    await rawRequest(
      suite.server.port,
      "PUT",
      `${A}/${base}/cut/aborted.txt`,
      { "Content-Length": 100000 },
      Buffer.alloc(5000, 1),
      "destroy",
    );
    await until(async () => (await stored.files(`${base}/cut`)).length === 0);
    expect(await stored.files(`${base}/cut`)).toEqual([]);
    expect((await fetch(url(`${base}/cut/short.txt`))).status).toBe(404);
  });

  it("verifies Content-MD5 and Digest: sha-256 and stores nothing on a mismatch", async () => {
    const body = "checked body";
    const md5 = createHash("md5").update(body).digest("base64");
    const sha = createHash("sha256").update(body).digest("base64");
    expect((await put(`${base}/digest/md5.txt`, body, { "Content-MD5": md5 })).status).toBe(200);
    expect((await put(`${base}/digest/sha.txt`, body, { Digest: `sha-256=${sha}` })).status).toBe(200);
    const wrongMd5 = await put(`${base}/digest/bad-md5.txt`, `${body}!`, { "Content-MD5": md5 });
    expect(wrongMd5.status).toBe(400);
    expect(await wrongMd5.json()).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    expect((await put(`${base}/digest/bad-sha.txt`, `${body}!`, { Digest: `SHA-256=${sha}` })).status).toBe(400);
    expect((await put(`${base}/digest/garbled.txt`, body, { "Content-MD5": "not base64!" })).status).toBe(400);
    expect(await stored.files(`${base}/digest`)).toEqual(["md5.txt", "sha.txt"]);
  });

  it("serves Range (206), conditional requests (304), attachment names and safe content types", async () => {
    await put(`${base}/serve/page.html`, "<script>alert(1)</script>");
    await put(`${base}/serve/pic.svg`, "<svg onload=alert(1)></svg>");
    await put(`${base}/serve/app.js`, "alert(1)");
    await put(`${base}/serve/img.png`, Buffer.from([0x89, 0x50]));
    await put(`${base}/serve/data.txt`, "0123456789");
    for (const name of ["page.html", "pic.svg", "app.js"]) {
      const res = await fetch(url(`${base}/serve/${name}`));
      expect(res.headers.get("content-type"), name).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename=${name}`);
    }
    expect((await fetch(url(`${base}/serve/img.png`))).headers.get("content-type")).toBe("image/png");
    const part = await fetch(url(`${base}/serve/data.txt`), { headers: { Range: "bytes=2-4" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-4/10");
    expect(await part.text()).toBe("234");
    const full = await fetch(url(`${base}/serve/data.txt`));
    const etag = full.headers.get("etag")!;
    const modified = full.headers.get("last-modified")!;
    expect(etag).toBeTruthy();
    // (raw requests: fetch adds `Cache-Control: no-cache` to conditional requests, which forces a 200)
    expect(
      (await rawRequest(suite.server.port, "GET", `${A}/${base}/serve/data.txt`, { "If-None-Match": etag }))?.status,
    ).toBe(304);
    expect(
      (await rawRequest(suite.server.port, "GET", `${A}/${base}/serve/data.txt`, { "If-Modified-Since": modified }))
        ?.status,
    ).toBe(304);
    expect(
      (await rawRequest(suite.server.port, "GET", `${A}/${base}/serve/data.txt`, { "If-None-Match": '"other"' }))
        ?.status,
    ).toBe(200);
    expect((await fetch(url(`${base}/serve/data.txt`), { headers: { Range: "bytes=50-60" } })).status).toBe(416);
    const browser = await fetch(`${suite.url}/get-artifact?run_uuid=${runId}&path=serve/data.txt`, {
      headers: { Range: "bytes=0-0" },
    });
    expect(browser.status).toBe(206);
    expect(await browser.text()).toBe("0");
  });

  it("refuses a PUT onto a directory or below a file on a folder (S3 keeps both names), and deletes directories recursively (missing is fine)", async () => {
    await put(`${base}/del/keep/x.txt`, "x");
    const list = async (p: string) => (await fetch(`${suite.url}${A}?path=${encodeURIComponent(p)}`)).json();
    if (onFolder) {
      expect((await put(`${base}/del/keep`, "y")).status).toBe(400);
      expect((await put(`${base}/del/keep/x.txt/below.txt`, "y")).status).toBe(400);
    } else {
      // S3 has no folders: a key may also prefix others. The name is listed as both; the file is what downloads.
      expect((await put(`${base}/del/keep`, "y")).status).toBe(200);
      expect((await put(`${base}/del/keep/x.txt/below.txt`, "z")).status).toBe(200);
      expect(await list(`${base}/del`)).toEqual({
        files: [
          { path: "keep", is_dir: true },
          { path: "keep", is_dir: false, file_size: 1 },
        ],
      });
      expect(await (await fetch(url(`${base}/del/keep`))).text()).toBe("y");
      expect(await (await fetch(url(`${base}/del/keep/x.txt`))).text()).toBe("x");
      expect(await list(`${base}/del/keep/x.txt`)).toEqual({
        files: [{ path: "below.txt", is_dir: false, file_size: 1 }],
      });
      expect((await fetch(url(`${base}/del/keep`), { method: "DELETE" })).status).toBe(200);
      expect(await stored.files(`${base}/del`)).toEqual([]);
      await put(`${base}/del/keep/x.txt`, "x");
    }
    expect((await fetch(url(`${base}/del/keep/`), { method: "DELETE" })).status).toBe(200);
    expect(await stored.files(`${base}/del/keep`)).toEqual([]);
    expect((await fetch(url(`${base}/del/never-was`), { method: "DELETE" })).status).toBe(200);
  });

  it("takes many parallel uploads to one run, and refuses writes to a deleted run (deletes still work, for mlflow gc)", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `par/f${i}.txt`);
    const answers = await Promise.all(names.map((n, i) => put(`${base}/${n}`, `content ${i}`)));
    expect(answers.map((r) => r.status)).toEqual(names.map(() => 200));
    for (const [i, n] of names.entries()) expect((await stored.read(`${base}/${n}`))?.toString()).toBe(`content ${i}`);
    const run = (await suite.api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: exp }))
      .body.run.info.run_id;
    expect((await put(`${exp}/${run}/artifacts/a.txt`, "a")).status).toBe(200);
    await suite.api.post("runs/delete", { run_id: run });
    const refused = await put(`${exp}/${run}/artifacts/b.txt`, "b");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error_code: "INVALID_PARAMETER_VALUE",
      message: expect.stringContaining("active"),
    });
    expect((await fetch(url(`${exp}/${run}/artifacts/`), { method: "DELETE" })).status).toBe(200);
  });

  it("takes MLflow 2.x multipart uploads (mpu/create, complete, abort) straight to S3, and answers 501 on a folder", async () => {
    const mpu = (op: string, dir: string, body: unknown) =>
      fetch(`${suite.url}/api/2.0/mlflow-artifacts/mpu/${op}/${dir}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    if (onFolder) {
      const refused = await mpu("create", `${base}/mpu`, { path: "/tmp/local/big.bin", num_parts: 2 });
      expect(refused.status).toBe(501);
      expect(await refused.json()).toMatchObject({ error_code: "NOT_IMPLEMENTED" });
      return;
    }
    const data = Buffer.alloc(5 * 1024 * 1024 + 1000, 3);
    data.write("head", 0);
    const created = await mpu("create", `${base}/mpu`, { path: "/tmp/local/big.bin", num_parts: 2 });
    expect(created.status, await created.clone().text()).toBe(200);
    const { upload_id, credentials } = (await created.json()) as {
      upload_id: string;
      credentials: { url: string; part_number: number; headers: Record<string, string> }[];
    };
    expect(credentials.map((c) => c.part_number)).toEqual([1, 2]);
    const pieces = [data.subarray(0, 5 * 1024 * 1024), data.subarray(5 * 1024 * 1024)];
    const parts = [];
    for (const [i, credential] of credentials.entries()) {
      const sent = await fetch(credential.url, { method: "PUT", body: pieces[i], headers: credential.headers });
      expect(sent.status, await sent.clone().text()).toBe(200);
      parts.push({ part_number: credential.part_number, etag: sent.headers.get("etag")!, url: credential.url });
    }
    expect((await fetch(url(`${base}/mpu/big.bin`))).status).toBe(404);
    const completed = await mpu("complete", `${base}/mpu`, { path: "/tmp/local/big.bin", upload_id, parts });
    expect(completed.status, await completed.clone().text()).toBe(200);
    const got = await fetch(url(`${base}/mpu/big.bin`));
    expect(got.headers.get("content-length")).toBe(String(data.length));
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);

    const other = (await (await mpu("create", `${base}/mpu`, { path: "gone.bin" })).json()) as { upload_id: string };
    expect((await mpu("abort", `${base}/mpu`, { path: "gone.bin", upload_id: other.upload_id })).status).toBe(200);
    expect((await mpu("abort", `${base}/mpu`, { path: "gone.bin", upload_id: other.upload_id })).status).toBe(200);
    const late = await mpu("complete", `${base}/mpu`, {
      path: "gone.bin",
      upload_id: other.upload_id,
      parts: [{ part_number: 1, etag: '"x"' }],
    });
    expect(late.status).toBe(404);
    expect((await mpu("create", `${base}/mpu`, { path: "a/.." })).status).toBe(400);
    expect((await mpu("create", `${base}/a%5C..%5Cx`, { path: "a.bin" })).status).toBe(400);
    expect(await stored.files(`${base}/mpu`)).toEqual(["big.bin"]);
  });

  it("pages artifacts/list through a folder of more than one page: every entry once, a tampered token refused", async () => {
    const names = Array.from({ length: 1003 }, (_, i) => `f${String(i).padStart(4, "0")}.txt`);
    for (let i = 0; i < names.length; i += 50)
      await Promise.all(names.slice(i, i + 50).map((name) => stored.write(`${base}/paged/${name}`, name)));
    await stored.write(`${base}/paged/sub/inner.txt`, "inner");
    const pages: Array<{ files: Array<{ path: string }>; next_page_token?: string }> = [];
    let token: string | undefined;
    do {
      const page = await suite.api.get<(typeof pages)[number]>("artifacts/list", {
        run_id: runId,
        path: "paged",
        ...(token ? { page_token: token } : {}),
      });
      expect(page.status).toBe(200);
      pages.push(page.body);
      token = page.body.next_page_token;
    } while (token && pages.length < 5);
    expect(pages.map((p) => p.files.length)).toEqual([1000, 4]);
    expect(pages.flatMap((p) => p.files.map((f) => f.path)).sort()).toEqual(
      [...names, "sub"].map((name) => `paged/${name}`).sort(),
    );
    const tampered = await suite.api.get("artifacts/list", { run_id: runId, path: "paged", page_token: "e30" });
    expect(tampered.status).toBe(400);
  });

  it("serves runs' and model versions' files through the browser endpoints and the revisions' artifact operations", async () => {
    await put(`${base}/model/MLmodel`, "flavors: {}\n");
    const c = suite.api;
    const listed = await c.get<{ root_uri: string; files: unknown[] }>("artifacts/list", {
      run_id: runId,
      path: "model",
    });
    expect(listed.body).toEqual({
      root_uri: `mlflow-artifacts:/${base}`,
      files: [{ path: "model/MLmodel", is_dir: false, file_size: 12 }],
    });
    const a = await fetch(`${suite.url}/api/2.0/preview/tracker/artifacts/get?run_uuid=${runId}&path=model/MLmodel`);
    expect(await a.text()).toBe("flavors: {}\n");
    const viaUi = await fetch(`${suite.url}/get-artifact?run_id=${runId}&path=model%2FMLmodel`);
    expect(viaUi.status).toBe(200);
    expect(viaUi.headers.get("content-type")).toBe("application/octet-stream");
    await call(suite.url, "POST", "/api/2.0/preview/tracker/registered-models/create", { name: "m" });
    await call(suite.url, "POST", "/api/2.0/preview/tracker/model-versions/create", {
      name: "m",
      source: `runs:/${runId}/model`,
      run_id: runId,
    });
    await call(suite.url, "POST", "/api/2.0/preview/tracker/model-versions/create", {
      name: "m",
      source: `mlflow-artifacts:/${base}/model`,
    });
    for (const version of ["1", "2"]) {
      const mv = await fetch(`${suite.url}/model-versions/get-artifact?name=m&version=${version}&path=MLmodel`);
      expect(mv.status, version).toBe(200);
      expect(await mv.text()).toBe("flavors: {}\n");
    }
    expect((await fetch(`${suite.url}/model-versions/get-artifact?name=m&version=9&path=MLmodel`)).status).toBe(404);
    expect((await fetch(`${suite.url}/model-versions/get-artifact?name=m&version=1&path=..%2F..%2Fx`)).status).toBe(
      400,
    );
    expect((await fetch(`${suite.url}/get-artifact?run_uuid=${"0".repeat(32)}&path=x`)).status).toBe(404);
  });
});

describe("artifact service configuration", () => {
  it.each(testArtifactStores())(
    "refuses bodies over --max-artifact-size with 413 (%s store): before reading when Content-Length says so, and while reading a chunked body",
    async (store) => {
      const server = await startTestServer("pglite", { maxArtifactSize: 1000, ...artifactStoreConfig(store) });
      try {
        const stored = storedArtifacts(server.config.artifactsDestination);
        // Only the headers are sent: the answer comes before any byte of the body.
        const early = await rawRequest(server.port, "PUT", `${A}/1/big.bin`, { "Content-Length": 5000 });
        expect(early?.status).toBe(413);
        expect(JSON.parse(early!.text)).toMatchObject({ error_code: "REQUEST_TOO_LARGE" });
        const streamed = await rawRequest(
          server.port,
          "PUT",
          `${A}/1/big.bin`,
          { "Transfer-Encoding": "chunked" },
          chunked(Buffer.alloc(800), Buffer.alloc(800)),
        );
        expect(streamed?.status).toBe(413);
        expect((await fetch(`${server.url}${A}/1/ok.bin`, { method: "PUT", body: Buffer.alloc(1000) })).status).toBe(
          200,
        );
        // (a local folder's upload temporaries live beside it: only the stored file is inside)
        await until(async () => !(await stored.files("")).some((f) => f.includes("tracker-upload")));
        expect(await stored.files("")).toEqual(["1/ok.bin"]);
      } finally {
        await server.dispose();
      }
    },
  );

  // One server per test: each start has the whole test timeout, however loaded the machine is.
  it("answers 503 for artifacts without serving, and roots experiments in the data folder", async () => {
    const off = await startTestServer("pglite", { serveArtifacts: false });
    try {
      const disabled = await fetch(`${off.url}${A}/1/x.txt`);
      expect(disabled.status).toBe(503);
      expect(await disabled.json()).toMatchObject({ error_code: "TEMPORARILY_UNAVAILABLE" });
      expect(
        (
          await trackingApi(off.url).get<{ experiment: { artifact_location: string } }>("experiments/get", {
            experiment_id: "0",
          })
        ).body.experiment.artifact_location,
      ).toBe(path.join(off.dataDir, "artifacts", "0"));
    } finally {
      await off.dispose();
    }
  });

  it("serves only artifacts with --artifacts-only", async () => {
    const only = await startTestServer("pglite", { artifactsOnly: true });
    try {
      expect((await trackingApi(only.url).get("experiments/get", { experiment_id: "0" })).status).toBe(503);
      expect((await fetch(`${only.url}${A}/1/x.txt`, { method: "PUT", body: "x" })).status).toBe(200);
      expect((await fetch(`${only.url}/model-versions/get-artifact?name=m&version=1&path=x`)).status).toBe(503);
    } finally {
      await only.dispose();
    }
  });

  it("keeps local folders with an explicit file:// root", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-root-"));
    const local = await startTestServer("pglite", { artifactRoot: `file://${root}` });
    try {
      const exp = (
        await trackingApi(local.url).post<{ experiment_id: string }>("experiments/create", { name: "local" })
      ).body.experiment_id;
      expect(
        (
          await trackingApi(local.url).get<{ experiment: { artifact_location: string } }>("experiments/get", {
            experiment_id: exp,
          })
        ).body.experiment.artifact_location,
      ).toBe(`file://${root}/${exp}`);
    } finally {
      await local.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
