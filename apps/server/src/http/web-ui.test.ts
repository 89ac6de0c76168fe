import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, useTestServer } from "@tracker/testing";
import { namesHtml, WEB_UI_CSP } from "./web-ui.js";

/** A stand-in for the built UI (apps/web/dist): an index with the namespace placeholder and one asset. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-web-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><meta name="tracker-namespace" content="tracker"><script type="module" src="/assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(dir, "assets", "app.js"), "export {};");
  fs.writeFileSync(path.join(dir, "robots.txt"), "User-agent: *");
  return dir;
}

describe("the web UI at /", () => {
  const webDir = fakeBuild();
  const server = useTestServer("pglite", { webDir });
  const mlflow = useTestServer("pglite", { webDir, namespace: "mlflow" });
  const secured = useTestServer("pglite", { webDir, authToken: "s3cret" });
  afterAll(() => {
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const page = (base: string, pathname: string, accept = "text/html,application/xhtml+xml") =>
    fetch(`${base}${pathname}`, { headers: { accept } });

  it("serves index.html at / and at client-side routes, under a CSP without inline scripts", async () => {
    for (const route of [
      "/",
      "/experiments",
      "/runs/0123456789abcdef0123456789abcdef?e=1",
      "/models/a%20b/versions/2",
    ]) {
      const response = await page(server.url, route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
      expect(await response.text()).toContain("/assets/app.js");
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toBe(WEB_UI_CSP);
      expect(csp).not.toContain("unsafe-inline");
    }
  });

  it("serves / to clients that take anything (curl, fetch, prefetches) or send no Accept; other routes to clients naming HTML", async () => {
    for (const accept of ["*/*", "text/*", "text/html;q=0.9, application/json;q=0.5", "application/json;q=0.1, */*"]) {
      const response = await page(server.url, "/", accept);
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
    }
    for (const accept of ["text/*", "text/html;q=0.9, application/json;q=0.5", "application/xhtml+xml, */*;q=0.8"]) {
      const response = await page(server.url, "/experiments/1/runs", accept);
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
    }
    // A script that mistypes an endpoint outside the API is answered in JSON, not with a web page.
    for (const accept of ["*/*", "application/json;q=0.1, */*", "text/html;q=0, */*"]) {
      const response = await page(server.url, "/experiments/1/runs", accept);
      expect(response.status, accept).toBe(404);
      expect(await response.json()).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
    }
    // No Accept header at all (fetch always adds one; Node's http client does not).
    const bare = await new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
      http
        .get(`${server.url}/`, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] });
        })
        .on("error", reject);
    });
    expect(bare).toMatchObject({ status: 200, type: expect.stringMatching(/text\/html/) });
    const head = await fetch(`${server.url}/`, { method: "HEAD", headers: { accept: "*/*" } });
    expect(head.status).toBe(200);
  });

  it("keeps the JSON 404 for clients that prefer JSON or do not take HTML", async () => {
    for (const accept of [
      "application/json",
      "application/json, text/plain, */*",
      "application/json, text/html;q=0.5",
      "image/png",
    ]) {
      const response = await page(server.url, "/", accept);
      expect(response.status, accept).toBe(404);
      if (accept.startsWith("application/json"))
        expect(await response.json()).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
    }
    for (const route of [
      "/api/2.0/tracker/nope",
      "/ajax-api/2.0/tracker/nope",
      "/get-artifact",
      "/model-versions/get-artifact",
      "/docs/nope",
    ]) {
      const response = await page(server.url, route, "*/*");
      expect(response.headers.get("content-type"), route).not.toMatch(/text\/html/);
    }
  });

  it("tells an Accept header that names HTML from one that only takes anything", () => {
    expect(namesHtml("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(true);
    expect(namesHtml("TEXT/HTML")).toBe(true);
    expect(namesHtml("text/*;q=0.5")).toBe(true);
    expect(namesHtml("*/*")).toBe(false);
    expect(namesHtml("")).toBe(false);
    expect(namesHtml("application/json")).toBe(false);
    expect(namesHtml("text/html;q=0, */*")).toBe(false);
    expect(namesHtml("text/html;level=1;q=0.2")).toBe(true);
  });

  it("puts the server's namespace into the page", async () => {
    expect(await (await page(server.url, "/")).text()).toContain('<meta name="tracker-namespace" content="tracker">');
    expect(await (await page(mlflow.url, "/experiments")).text()).toContain(
      '<meta name="tracker-namespace" content="mlflow">',
    );
  });

  it("serves assets and root files; a missing asset is a 404, not the index", async () => {
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toMatch(/immutable/);
    expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
    expect((await fetch(`${server.url}/assets/nope.js`)).status).toBe(404);
  });

  it("leaves the API, /health and /docs alone, and answers JSON 404s to API clients", async () => {
    const health = await fetch(`${server.url}/health`);
    expect(await health.json()).toMatchObject({ status: "ok" });
    const api = await page(server.url, "/api/2.0/tracker/nope");
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
    const json = await page(server.url, "/somewhere", "application/json");
    expect(json.status).toBe(404);
    expect((await page(server.url, "/ajax-api/2.0/tracker/experiments/search?max_results=1")).status).toBe(200);
    const post = await fetch(`${server.url}/experiments`, { method: "POST", headers: { accept: "text/html" } });
    expect(post.status).toBe(404);
  });

  it("serves the page without the token while the API still demands it", async () => {
    expect((await page(secured.url, "/experiments")).status).toBe(200);
    expect((await fetch(`${secured.url}/api/2.0/tracker/experiments/search?max_results=1`)).status).toBe(401);
  });

  it("says how to build the UI when there is no build", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-noweb-"));
    const bare = await startTestServer("pglite", { webDir: empty });
    try {
      const response = await page(bare.url, "/");
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("pnpm build");
    } finally {
      await bare.dispose();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
