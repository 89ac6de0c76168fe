import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { useTestServer } from "@tracker/testing";
import { API_BROTLI_QUALITY } from "./compress.js";

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

/** A GET with node:http (fetch would decode the body and hide its size on the wire). */
function get(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      })
      .on("error", reject);
  });
}

/** A GET's body as it came on the wire (not decoded). */
function getBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      })
      .on("error", reject);
  });
}

const brotliAt = (body: Buffer, quality: number) =>
  zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } });

/** A stand-in for apps/web/dist: index.html and a hashed script and stylesheet of some size. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-compress-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><meta name="tracker-namespace" content="tracker"><script type="module" src="/assets/index-AbC123.js"></script>',
  );
  fs.writeFileSync(path.join(dir, "assets", "index-AbC123.js"), "export const x = 1;\n".repeat(2000));
  fs.writeFileSync(path.join(dir, "assets", "index-DeF456.css"), "body { color: red; }\n".repeat(2000));
  return dir;
}

describe("compressed responses", () => {
  const webDir = fakeBuild();
  const server = useTestServer("pglite", { webDir });
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));
  const gzip = { "accept-encoding": "gzip" };

  it("serves the UI's hashed scripts and styles compressed and cached for a year, index.html compressed and revalidated", async () => {
    for (const [asset, type] of [
      ["index-AbC123.js", /javascript/],
      ["index-DeF456.css", /text\/css/],
    ] as const) {
      const res = await get(`${server.url}/assets/${asset}`, gzip);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(type);
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(res.bytes).toBeLessThan(2000);
      expect(res.headers["cache-control"]).toMatch(/max-age=31536000/);
      expect(res.headers["cache-control"]).toMatch(/immutable/);
      const br = await get(`${server.url}/assets/${asset}`, { "accept-encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      const plain = await get(`${server.url}/assets/${asset}`, {});
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.bytes).toBe(fs.statSync(path.join(webDir, "assets", asset)).size);
    }
    const index = await get(`${server.url}/experiments`, { accept: "text/html", ...gzip });
    expect(index.status).toBe(200);
    expect(index.headers["cache-control"]).toBe("no-cache");
  });

  it("compresses JSON answers of 1 KB and more, not smaller ones", async () => {
    for (let i = 0; i < 30; i++) await server.api.post("experiments/create", { name: `compressed-${i}` });
    const search = await get(`${server.url}/api/2.0/tracker/experiments/search?max_results=100`, gzip);
    expect(search.status).toBe(200);
    expect(search.headers["content-type"]).toMatch(/application\/json/);
    expect(search.headers["content-encoding"]).toBe("gzip");
    expect(search.headers.vary).toMatch(/Accept-Encoding/i);
    const health = await get(`${server.url}/health`, gzip);
    expect(health.headers["content-encoding"]).toBeUndefined();
    // A small answer is not compressed but varies by the client's encodings, as the URL's larger ones do.
    expect(health.headers.vary).toMatch(/Accept-Encoding/i);
    const small = await get(`${server.url}/api/2.0/tracker/experiments/search?max_results=1`, gzip);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toMatch(/Accept-Encoding/i);
    // Without gzip among the client's encodings, no encoding; the answer still says it varies.
    const plain = await get(`${server.url}/api/2.0/tracker/experiments/search?max_results=100`, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const brotli = await get(`${server.url}/api/2.0/tracker/experiments/search?max_results=100`, {
      "accept-encoding": "br",
    });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.bytes).toBeLessThan(plain.bytes);
  });

  it("compresses API answers with brotli at quality 2, the UI's files at the middleware's 4", async () => {
    for (let i = 0; i < 30; i++) await server.api.post("experiments/create", { name: `brotli-${i}` });
    const url = `${server.url}/api/2.0/tracker/experiments/search?max_results=100`;
    const plain = await getBody(url, {});
    const br = await getBody(url, { "accept-encoding": "br" });
    expect(zlib.brotliDecompressSync(br).equals(plain)).toBe(true);
    // The two qualities give different bytes for this answer, so the comparison says which one served it.
    expect(brotliAt(plain, API_BROTLI_QUALITY).equals(brotliAt(plain, 4))).toBe(false);
    expect(br.equals(brotliAt(plain, API_BROTLI_QUALITY))).toBe(true);
    const script = fs.readFileSync(path.join(webDir, "assets", "index-AbC123.js"));
    expect(brotliAt(script, API_BROTLI_QUALITY).equals(brotliAt(script, 4))).toBe(false);
    const served = await getBody(`${server.url}/assets/index-AbC123.js`, { "accept-encoding": "br" });
    expect(served.equals(brotliAt(script, 4))).toBe(true);
  });

  it("compresses a streamed metric history", async () => {
    const exp = await server.api.post<{ experiment_id: string }>("experiments/create", { name: "history" });
    const run = await server.api.post<{ run: { info: { run_id: string } } }>("runs/create", {
      experiment_id: exp.body.experiment_id,
    });
    const runId = run.body.run.info.run_id;
    const metrics = Array.from({ length: 200 }, (_, step) => ({ key: "loss", value: step / 7, timestamp: 1, step }));
    await server.api.post("runs/log-batch", { run_id: runId, metrics });
    const history = await get(
      `${server.url}/api/2.0/tracker/metrics/get-history?run_id=${runId}&metric_key=loss`,
      gzip,
    );
    expect(history.status).toBe(200);
    expect(history.headers["content-encoding"]).toBe("gzip");
    expect(history.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it("leaves artifact files as they are (byte ranges, sizes)", async () => {
    const exp = await server.api.post<{ experiment_id: string }>("experiments/create", { name: "artifacts" });
    const run = await server.api.post<{ run: { info: { run_id: string } } }>("runs/create", {
      experiment_id: exp.body.experiment_id,
    });
    const id = run.body.run.info.run_id;
    const text = "a,b\n1,2\n".repeat(1000);
    const put = await fetch(
      `${server.url}/api/2.0/mlflow-artifacts/artifacts/${exp.body.experiment_id}/${id}/artifacts/big.csv`,
      { method: "PUT", body: text },
    );
    expect(put.status).toBe(200);
    const res = await get(`${server.url}/get-artifact?run_uuid=${id}&path=big.csv`, gzip);
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.bytes).toBe(text.length);
  });
});
