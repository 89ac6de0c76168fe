import http from "node:http";
import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer, type SuiteServer } from "@tracker/testing";
import { loadConfig } from "../config/config.js";
import { hostChecker, hostNameOf, originChecker } from "./cross-site.js";

/**
 * Issue 29, "safe defaults": what a page on another site can make a browser send is refused with
 * authentication off: foreign Host names (DNS rebinding), foreign Origins on writes, and bodies
 * that are not declared JSON.
 */

describe("hostNameOf", () => {
  it.each([
    ["127.0.0.1:5000", "127.0.0.1"],
    ["[::1]:5000", "::1"],
    ["::1", "::1"],
    ["Evil.Example:80", "evil.example"],
    ["localhost", "localhost"],
  ])("%s is %s", (header, name) => expect(hostNameOf(header)).toBe(name));
});

describe("hostChecker", () => {
  const allowed = hostChecker("0.0.0.0", ["tracker.example.com", "*.corp.example"]);
  it.each([
    "127.0.0.1:5000",
    "[::1]:5000",
    "10.1.2.3",
    "localhost:5000",
    "app.localhost",
    "tracker.example.com:443",
    "a.corp.example",
  ])("accepts %s", (host) => expect(allowed(host)).toBe(true));
  it.each(["evil.example:5000", "corp.example", "tracker.example.com.evil.example", ""])("refuses %s", (host) =>
    expect(allowed(host)).toBe(false),
  );
  it("accepts the listen address when it is a name, and anything with `*`", () => {
    expect(hostChecker("tracker.lan", [])("tracker.lan:5000")).toBe(true);
    expect(hostChecker("127.0.0.1", ["*"])("whatever.example")).toBe(true);
  });
});

describe("originChecker", () => {
  const allowed = originChecker(["https://ui.example.com", "http://localhost:*"]);
  it("accepts the server's own origin and the configured ones", () => {
    expect(allowed("http://127.0.0.1:5000", "127.0.0.1:5000")).toBe(true);
    expect(allowed("https://ui.example.com", "127.0.0.1:5000")).toBe(true);
    expect(allowed("http://localhost:3000", "127.0.0.1:5000")).toBe(true);
  });
  it("refuses other origins, `null` and garbage", () => {
    expect(allowed("http://evil.example", "127.0.0.1:5000")).toBe(false);
    expect(allowed("http://127.0.0.1:5001", "127.0.0.1:5000")).toBe(false);
    expect(allowed("null", "127.0.0.1:5000")).toBe(false);
    expect(allowed("not a url", "127.0.0.1:5000")).toBe(false);
    expect(allowed("http://127.0.0.1:5000", "bad host[")).toBe(false);
  });
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One request with full control of the Host header (fetch sets its own). */
function send(
  url: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: Record<string, unknown> = {};
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          parsed = { text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function newExperiment(suite: SuiteServer, name: string): Promise<string> {
  const created = await suite.api.post<{ experiment_id: string }>("experiments/create", { name });
  expect(created.status).toBe(200);
  return created.body.experiment_id;
}

async function lifecycleOf(suite: SuiteServer, id: string): Promise<unknown> {
  const got = await suite.api.get<{ experiment: { lifecycle_stage: string } }>("experiments/get", {
    experiment_id: id,
  });
  return got.body.experiment.lifecycle_stage;
}

describe.each(testDatabases())("cross-site requests with authentication off, on %s", (kind) => {
  const suite = useTestServer(kind);
  const own = () => new URL(suite.url).host;

  it("refuses the issue's cross-site delete (text/plain, foreign Origin and Host) and keeps the experiment", async () => {
    const id = await newExperiment(suite, "cross-site-target");
    const answer = await send(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/delete",
      { "content-type": "text/plain", origin: "http://evil.example", host: "evil.example:5000" },
      JSON.stringify({ experiment_id: id }),
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error_code: "PERMISSION_DENIED" });
    expect(await lifecycleOf(suite, id)).toBe("active");
  });

  it("refuses each part of it on its own", async () => {
    const id = await newExperiment(suite, "cross-site-parts");
    const body = JSON.stringify({ experiment_id: id });
    const json = { "content-type": "application/json" };
    const rebinding = await send(
      suite.url,
      "POST",
      "/api/2.0/mlflow/experiments/delete",
      {
        ...json,
        host: "evil.example:5000",
      },
      body,
    );
    expect(rebinding).toMatchObject({ status: 403, body: { error_code: "PERMISSION_DENIED" } });
    expect(String(rebinding.body.message)).toContain("Host");
    // DNS rebinding reads too: a GET under a foreign name is refused as well.
    const read = await send(suite.url, "GET", `/api/2.0/tracker/experiments/get?experiment_id=${id}`, {
      host: "evil.example:5000",
    });
    expect(read.status).toBe(403);
    const foreignOrigin = await send(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/delete",
      {
        ...json,
        host: own(),
        origin: "http://evil.example",
      },
      body,
    );
    expect(foreignOrigin).toMatchObject({ status: 403, body: { error_code: "PERMISSION_DENIED" } });
    expect(String(foreignOrigin.body.message)).toContain("Cross-origin");
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const simple = await send(
        suite.url,
        "POST",
        "/api/2.0/tracker/experiments/delete",
        {
          "content-type": type,
          host: own(),
        },
        body,
      );
      expect(simple, type).toMatchObject({ status: 400, body: { error_code: "BAD_REQUEST" } });
      expect(String(simple.body.message)).toContain("Content-Type must be application/json");
    }
    const form = await send(
      suite.url,
      "POST",
      "/ajax-api/2.0/mlflow/experiments/create",
      {
        "content-type": "application/x-www-form-urlencoded",
        host: own(),
      },
      "name=form-made",
    );
    expect(form.status).toBe(400);
    const search = await suite.api.post<{ experiments?: Array<{ name: string }> }>("experiments/search", {
      max_results: 1000,
    });
    expect(search.body.experiments?.map((e) => e.name)).not.toContain("form-made");
    expect(await lifecycleOf(suite, id)).toBe("active");
  });

  it("accepts the server's own origin, reads from any origin, and JSON with a charset", async () => {
    const id = await newExperiment(suite, "same-origin");
    const read = await send(suite.url, "GET", `/api/2.0/tracker/experiments/get?experiment_id=${id}`, {
      origin: "http://evil.example",
    });
    expect(read.status).toBe(200);
    const deleted = await send(
      suite.url,
      "POST",
      "/api/2.0/tracker/experiments/delete",
      {
        "content-type": "application/json; charset=utf-8",
        host: own(),
        origin: `http://${own()}`,
      },
      JSON.stringify({ experiment_id: id }),
    );
    expect(deleted.status).toBe(200);
    expect(await lifecycleOf(suite, id)).toBe("deleted");
  });

  it("takes an artifact upload with the file's own Content-Type", async () => {
    const answer = await send(
      suite.url,
      "PUT",
      "/api/2.0/mlflow-artifacts/artifacts/cross-site/table.csv",
      { "content-type": "text/csv", host: own() },
      "a,b\n1,2\n",
    );
    expect(answer.status).toBe(200);
  });
});

/** Servers set up for a deployment, and a create request each must accept. */
const deployments = [
  {
    name: "configured names and origins",
    options: { allowedHosts: ["tracker.example.com"], corsAllowedOrigins: ["https://ui.example.com"] },
    headers: { "content-type": "application/json", host: "tracker.example.com", origin: "https://ui.example.com" },
  },
  {
    name: "checks turned off behind a rewriting proxy",
    options: { crossSiteChecks: false },
    headers: { "content-type": "text/plain", host: "tracker.internal:8080", origin: "https://tracker.example.com" },
  },
];

describe.each(testDatabases())("cross-site checks by deployment, on %s", (kind) => {
  describe.each(deployments)("$name", ({ name, options, headers }) => {
    const suite = useTestServer(kind, options);
    it("accepts the create request", async () => {
      const created = await send(
        suite.url,
        "POST",
        "/api/2.0/tracker/experiments/create",
        headers,
        JSON.stringify({ name: name.replace(/\W+/g, "-") }),
      );
      expect(created.status).toBe(200);
    });
  });
});

describe("configuration", () => {
  it("reads the lists and the switch from the environment", () => {
    const config = loadConfig({
      TRACKER_ALLOWED_HOSTS: "a.example, *.b.example,",
      TRACKER_CORS_ALLOWED_ORIGINS: "https://ui.example",
      TRACKER_DISABLE_SECURITY_MIDDLEWARE: "1",
    });
    expect(config.allowedHosts).toEqual(["a.example", "*.b.example"]);
    expect(config.corsAllowedOrigins).toEqual(["https://ui.example"]);
    expect(config.crossSiteChecks).toBe(false);
    expect(loadConfig({}).crossSiteChecks).toBe(true);
  });
});
