import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import { createApp } from "../http/app.js";
import { errorHandler } from "../http/error-handler.js";
import { handlers } from "../http/handlers/index.js";
import { tokensMatch } from "../http/security.js";
import { call, previewApi, startTestServer, testDatabases, trackingApi, type TestServer } from "../testing/test-server.js";
import { errorAnswerProblems, leaksIn, sendRaw, type RawAnswer } from "./checks.js";

/**
 * Security: artifact paths cannot leave the artifact root, error bodies carry no stack trace or
 * SQL, security headers are set, and the optional bearer token (TRACKER_AUTH_TOKEN) is enforced.
 */

const SECRET = "TOP-SECRET-CONTENT";

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

describe.each(testDatabases())("artifact paths cannot escape the artifact root (%s)", (kind) => {
  let server: TestServer;
  let outside: string;
  let runId: string;
  let root: string;
  beforeAll(async () => {
    // Local artifact folders (as with --default-artifact-root): the test writes into them directly.
    server = await startTestServer(kind, { proxyArtifacts: false });
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), SECRET);
    const api = trackingApi(server.url);
    const exp = (await api.post<{ experiment_id: string }>("experiments/create", { name: "paths" })).body.experiment_id;
    const run = (await api.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", { experiment_id: exp })).body.run.info;
    runId = run.run_id;
    root = run.artifact_uri;
    fs.mkdirSync(path.join(root, "sub"), { recursive: true });
    fs.writeFileSync(path.join(root, "sub", "ok.txt"), "fine");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link-file"));
    fs.symlinkSync(outside, path.join(root, "link-dir"));
    fs.symlinkSync("../../../../../../../../..", path.join(root, "sub", "link-up"));
  });
  afterAll(async () => {
    await server?.dispose();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const escapes = () => [
    "..",
    "../",
    "../secret.txt",
    "../../../../../../../../etc/passwd",
    "sub/../../x",
    "sub/../../../secret.txt",
    "/etc/passwd",
    path.join(outside, "secret.txt"),
    "..\\..\\secret.txt",
    "sub\\..\\..\\x",
    "C:\\Windows\\win.ini",
    "link-file",
    "link-dir",
    "link-dir/secret.txt",
    "sub/link-up",
    "sub/link-up/etc/passwd",
    "x\u0000y",
  ];
  // Sent percent-encoded once more than usual: the server decodes exactly once.
  const encoded = ["%2e%2e%2fsecret.txt", "%2E%2E/%2E%2E/etc/passwd", "..%2f..%2fetc%2fpasswd", "%2e%2e%5c%2e%2e%5csecret.txt", "%252e%252e%252fsecret.txt", "..%252f..%252f", "%c0%ae%c0%ae/secret.txt"];

  const get = (p: string, query: string) => sendRaw(server.url, "GET", `${p}?${query}`);
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  it("refuses `..`, absolute paths, backslashes, NUL and symlinks leading out, on every revision", async () => {
    for (const bad of escapes()) {
      for (const [p, idField] of [
        ["/api/2.0/tracker/artifacts/list", "run_id"],
        ["/api/2.0/preview/tracker/artifacts/list", "run_uuid"],
        ["/api/2.0/preview/tracker/artifacts/get", "run_uuid"],
      ] as const) {
        const answer = await get(p, q({ [idField]: runId, path: bad }));
        expect(answer.text, `${p} ${bad}`).not.toContain(SECRET);
        expect(answer.text).not.toMatch(/root:x:0:0/);
        expect(answer.status, `${p} ${JSON.stringify(bad)}: ${answer.text}`).toBe(400);
        expect(errorAnswerProblems(answer, [bad])).toEqual([]);
        expect(JSON.parse(answer.text).error_code).toBe("INVALID_PARAMETER_VALUE");
      }
    }
  });

  it("decodes URL-encoded paths once, then applies the same checks (no double decoding)", async () => {
    for (const bad of encoded) {
      for (const p of ["/api/2.0/preview/tracker/artifacts/get", "/api/2.0/preview/tracker/artifacts/list"]) {
        const answer = await get(p, `run_uuid=${runId}&path=${bad}`);
        expect(answer.text, `${p} ${bad}`).not.toContain(SECRET);
        // `..` after one decoding is refused; double-encoded text is a literal (missing) name.
        expect([400, 404, 200], `${p} ${bad}: ${answer.status} ${answer.text}`).toContain(answer.status);
        if (answer.status === 200) expect(JSON.parse(answer.text).files ?? []).toEqual([]);
        if (answer.status >= 400) expect(errorAnswerProblems(answer, [bad, safeDecode(bad)])).toEqual([]);
      }
    }
  });

  it("lists and serves what is inside, and hides symlinks that lead out of the run's directory", async () => {
    const list = await trackingApi(server.url).get<{ files: Array<{ path: string }> }>("artifacts/list", { run_id: runId });
    expect(list.status).toBe(200);
    expect(list.body.files.map((f) => f.path)).toEqual(["sub"]);
    const sub = await trackingApi(server.url).get<{ files: Array<{ path: string }> }>("artifacts/list", { run_id: runId, path: "sub" });
    expect(sub.body.files.map((f) => f.path)).toEqual(["sub/ok.txt"]);
    const file = await get("/api/2.0/preview/tracker/artifacts/get", q({ run_uuid: runId, path: "sub/ok.txt" }));
    expect(file.status).toBe(200);
    expect(file.text).toBe("fine");
  });

  it("does not serve runs whose artifact location lies outside the artifact root", async () => {
    for (const location of [outside, `file://${outside}`, `${server.dataDir}/artifacts/../../${path.basename(outside)}`]) {
      const exp = (await trackingApi(server.url).post<{ experiment_id: string }>("experiments/create", { name: `elsewhere ${location}`, artifact_location: location })).body.experiment_id;
      const run = (await trackingApi(server.url).post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", { experiment_id: exp })).body.run.info;
      const dir = run.artifact_uri.replace(/^file:\/\//, "");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "secret.txt"), SECRET);
      const list = await trackingApi(server.url).get("artifacts/list", { run_id: run.run_id });
      expect(list.status, `${location}: ${JSON.stringify(list.body)}`).toBe(400);
      expect(list.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
      const got = await get("/api/2.0/preview/tracker/artifacts/get", q({ run_uuid: run.run_id, path: "secret.txt" }));
      expect(got.status).toBe(400);
      expect(got.text).not.toContain(SECRET);
    }
    const other = (await trackingApi(server.url).post<{ experiment_id: string }>("experiments/create", { name: "other host", artifact_location: "file://elsewhere.example/x" })).body.experiment_id;
    const run = (await trackingApi(server.url).post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: other })).body.run.info;
    expect((await trackingApi(server.url).get("artifacts/list", { run_id: run.run_id })).status).toBe(400);
  });
});

describe("error bodies carry no stack trace and no SQL", () => {
  // The error handler alone, fed what handlers, drivers and parsers really throw.
  const app = express();
  const sqlError = Object.assign(new Error('select "run_uuid" from "runs" where "x" = $1 - syntax error at or near "x"'), { code: "42601", severity: "ERROR" });
  const thrown: Record<string, () => unknown> = {
    plain: () => new Error("boom at Object.<anonymous> (/work/main/apps/server/src/x.ts:1:2)"),
    sql: () => sqlError,
    typeError: () => {
      try {
        (undefined as unknown as { a: number }).a.toFixed();
      } catch (err) {
        return err;
      }
    },
    nul: () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
    range: () => Object.assign(new Error('value "99999999999999999999" is out of range for type bigint'), { code: "22003" }),
    deep: () => new RangeError("Maximum call stack size exceeded"),
    down: () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    terminated: () => new Error("Connection terminated unexpectedly"),
    shutdown: () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    poolTimeout: () => Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), { name: "KnexTimeoutError" }),
    unique: () => Object.assign(new Error('duplicate key value violates unique constraint "experiments_name_key"'), { code: "23505" }),
    string: () => "a thrown string",
  };
  const expected: Record<string, [number, string]> = {
    plain: [500, "INTERNAL_ERROR"],
    sql: [500, "INTERNAL_ERROR"],
    typeError: [500, "INTERNAL_ERROR"],
    nul: [400, "INVALID_PARAMETER_VALUE"],
    range: [400, "INVALID_PARAMETER_VALUE"],
    deep: [400, "INVALID_PARAMETER_VALUE"],
    down: [503, "TEMPORARILY_UNAVAILABLE"],
    terminated: [503, "TEMPORARILY_UNAVAILABLE"],
    shutdown: [503, "TEMPORARILY_UNAVAILABLE"],
    poolTimeout: [503, "TEMPORARILY_UNAVAILABLE"],
    unique: [500, "INTERNAL_ERROR"],
    string: [500, "INTERNAL_ERROR"],
  };
  app.get("/throw/:kind", (req) => {
    throw thrown[req.params.kind]();
  });
  app.use(errorHandler);
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(Object.keys(thrown))("%s", async (kind) => {
    const answer = await sendRaw(url, "GET", `/throw/${kind}`);
    const [status, code] = expected[kind];
    expect(answer.status).toBe(status);
    const body = JSON.parse(answer.text) as { error_code: string; message: string };
    expect(body.error_code).toBe(code);
    expect(Object.keys(body).sort()).toEqual(["error_code", "message"]);
    expect(leaksIn(body.message), body.message).toEqual([]);
    expect(body.message).not.toMatch(/select|syntax|runs|\/work\/|\.ts:|0x00|bigint|ECONNREFUSED|5432|Knex|duplicate|experiments_name_key|undefined/i);
  });

  it("the leak detector itself recognises stack frames, paths and SQL", () => {
    expect(leaksIn("Error: x\n    at foo (/a/b.ts:1:2)")).toContain("stack frame");
    expect(leaksIn("failed in /work/main/apps/server/dist/x.js:10")).toContain("source path");
    expect(leaksIn('syntax error at or near "DROP"')).toContain("PostgreSQL message");
    expect(leaksIn('insert into "runs" ("a") values ($1)')).toContain("SQL text");
    expect(leaksIn("Invalid value for 'name': must NOT have more than 500 characters")).toEqual([]);
    // Echoes of what the client sent are not leaks.
    expect(leaksIn("Invalid filter 'select * from runs where x'", ["select * from runs where x"])).toEqual([]);
  });
});

describe.each(testDatabases())("security headers (%s)", (kind) => {
  let server: TestServer;
  let runId: string;
  beforeAll(async () => {
    // Local artifact folders (as with --default-artifact-root): the test writes into them directly.
    server = await startTestServer(kind, { proxyArtifacts: false });
    const exp = (await previewApi(server.url).post<{ experiment_id: number }>("experiments/create", { name: "headers" })).body.experiment_id;
    const run = (await previewApi(server.url).post<{ run: { info: { run_uuid: string; artifact_uri: string } } }>("runs/create", { experiment_id: exp })).body.run.info;
    runId = run.run_uuid;
    fs.mkdirSync(run.artifact_uri, { recursive: true });
    fs.writeFileSync(path.join(run.artifact_uri, "page.html"), "<script>alert(1)</script>");
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("sets helmet's headers on every kind of answer", async () => {
    const answers = {
      health: await sendRaw(server.url, "GET", "/health"),
      ok: await sendRaw(server.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0"),
      invalid: await sendRaw(server.url, "POST", "/api/2.0/tracker/experiments/create", "{}", { "content-type": "application/json" }),
      notJson: await sendRaw(server.url, "POST", "/api/2.0/tracker/experiments/create", "{oops", { "content-type": "application/json" }),
      missing: await sendRaw(server.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=987654"),
      unknown: await sendRaw(server.url, "GET", "/nothing/here"),
      tooLarge: await sendRaw(server.url, "POST", "/api/2.0/tracker/experiments/create", JSON.stringify({ name: "x".repeat(1_100_000) })),
      artifact: await sendRaw(server.url, "GET", `/api/2.0/preview/tracker/artifacts/get?run_uuid=${runId}&path=page.html`),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const h = answer.headers;
      expect(h.get("content-security-policy"), name).toMatch(/default-src 'none'/);
      expect(h.get("content-security-policy"), name).toMatch(/frame-ancestors 'none'/);
      expect(h.get("x-content-type-options"), name).toBe("nosniff");
      expect(h.get("x-frame-options"), name).toBe("DENY");
      expect(h.get("strict-transport-security"), name).toMatch(/max-age=\d+/);
      expect(h.get("referrer-policy"), name).toBe("no-referrer");
      expect(h.get("cross-origin-resource-policy"), name).toBe("same-origin");
      expect(h.get("x-powered-by"), name).toBeNull();
    }
    expect(answers.artifact.status).toBe(200);
    expect(answers.artifact.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("answers requests Node's parser refuses (oversized URL or headers, garbage) with the JSON error body", async () => {
    const longUrl = await sendRaw(server.url, "GET", `/api/2.0/tracker/experiments/get-by-name?experiment_name=${"a".repeat(20_000)}`);
    expect(errorAnswerProblems(longUrl)).toEqual([]);
    expect(JSON.parse(longUrl.text).error_code).toBe("BAD_REQUEST");
    const bigHeader = await sendRaw(server.url, "GET", "/health", undefined, { "x-filler": "b".repeat(20_000) });
    expect(errorAnswerProblems(bigHeader)).toEqual([]);
    const net = await import("node:net");
    const garbage = await new Promise<string>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toMatchObject({ error_code: "BAD_REQUEST" });
  });
});

describe.each(testDatabases())("optional bearer-token authentication (%s)", (kind) => {
  const TOKEN = "s3cret-Token_with.chars~";
  let server: TestServer;
  let logged = "";
  let loggingServer: http.Server | undefined;
  let loggingUrl = "";
  beforeAll(async () => {
    server = await startTestServer(kind, { authToken: TOKEN });
    // The same app with a logger we can read, to prove the token never reaches the log.
    const sink = new Writable({
      write(chunk, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const config = loadConfig({}, { dataDir: server.dataDir, authToken: TOKEN, logLevel: "info" });
    const app = createApp({ services: { knex: server.database.knex, databaseKind: server.database.kind, config }, logger: pino({ level: "info" }, sink), handlers });
    loggingServer = http.createServer(app);
    await new Promise<void>((resolve) => loggingServer!.listen(0, "127.0.0.1", resolve));
    loggingUrl = `http://127.0.0.1:${(loggingServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (loggingServer ? loggingServer.close(() => resolve()) : resolve()));
    await server?.dispose();
  });

  const expect401 = (answer: RawAnswer, what: string) => {
    expect(answer.status, `${what}: ${answer.text}`).toBe(401);
    expect(errorAnswerProblems(answer)).toEqual([]);
    expect(JSON.parse(answer.text).error_code).toBe("UNAUTHENTICATED");
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer realm="tracker"/);
  };

  it("refuses requests without the token, or with another one, with 401 UNAUTHENTICATED", async () => {
    const paths = [
      ["GET", "/api/2.0/tracker/experiments/get?experiment_id=0"],
      ["POST", "/api/2.0/tracker/experiments/search"],
      ["GET", "/api/2.0/preview/tracker/experiments/list"],
      ["GET", "/ajax-api/2.0/mlflow/experiments/get?experiment_id=0"],
      ["POST", "/api/2.0/mlflow/runs/search"],
      ["GET", "/api/2.0/preview/tracker/registered-models/list"],
      ["GET", "/nothing/here"],
    ] as const;
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: "" },
      { authorization: "Bearer" },
      { authorization: "Bearer " },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN.toUpperCase()}` },
      { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}` },
      { authorization: TOKEN },
      { authorization: `Token ${TOKEN}` },
    ];
    for (const [method, p] of paths) {
      for (const headers of wrong) {
        const answer = await sendRaw(server.url, method, p, method === "POST" ? "{}" : undefined, headers);
        expect401(answer, `${method} ${p} ${JSON.stringify(headers)}`);
      }
    }
  });

  it("refuses before reading the body: an unauthenticated body over 1 MB is 401, not 413", async () => {
    const answer = await sendRaw(server.url, "POST", "/api/2.0/tracker/experiments/create", JSON.stringify({ name: "x".repeat(1_200_000) }));
    expect401(answer, "big body");
  });

  it("serves requests with the right token (scheme case-insensitive), and /health without one", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const answer = await sendRaw(server.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, { authorization: `${scheme} ${TOKEN}` });
      expect(answer.status, answer.text).toBe(200);
    }
    const created = await call(server.url, "POST", "/ajax-api/2.0/mlflow/experiments/create", { name: "with token" }, { authorization: `Bearer ${TOKEN}` });
    expect(created.status).toBe(200);
    const health = await sendRaw(server.url, "GET", "/health");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: "ok" });
  });

  it("never writes the token to the log", async () => {
    await sendRaw(loggingUrl, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, { authorization: `Bearer ${TOKEN}` });
    await sendRaw(loggingUrl, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0", undefined, { authorization: `Bearer wrong-${TOKEN}` });
    expect(logged).toMatch(/experiments\/get/);
    expect(logged).toMatch(/\[redacted\]/);
    expect(logged).not.toContain(TOKEN);
  });

  it("reads TRACKER_AUTH_TOKEN; an empty value means no authentication", () => {
    expect(loadConfig({ TRACKER_AUTH_TOKEN: "abc" }).authToken).toBe("abc");
    expect(loadConfig({ TRACKER_AUTH_TOKEN: "" }).authToken).toBeUndefined();
    expect(loadConfig({}).authToken).toBeUndefined();
  });

  it("compares tokens by their digests (constant time, any length)", () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
    expect(tokensMatch("", TOKEN)).toBe(false);
    expect(tokensMatch(TOKEN + TOKEN, TOKEN)).toBe(false);
  });
});
