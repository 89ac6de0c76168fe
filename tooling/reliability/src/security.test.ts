import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { errorAnswerProblems, sendRaw, testDatabases, useTestServer } from "@tracker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Security: artifact paths cannot leave the artifact root and security headers are set. (Error
 * bodies and the bearer token: apps/server/src/http/security.test.ts.)
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
  // Local artifact folders (as with --default-artifact-root): the test writes into them directly.
  const suite = useTestServer(kind, { proxyArtifacts: false });
  let outside: string;
  let runId: string;
  let root: string;
  beforeAll(async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), SECRET);
    const api = suite.api;
    const exp = (await api.post<{ experiment_id: string }>("experiments/create", { name: "paths" })).body.experiment_id;
    const run = (
      await api.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", { experiment_id: exp })
    ).body.run.info;
    runId = run.run_id;
    root = run.artifact_uri;
    fs.mkdirSync(path.join(root, "sub"), { recursive: true });
    fs.writeFileSync(path.join(root, "sub", "ok.txt"), "fine");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link-file"));
    fs.symlinkSync(outside, path.join(root, "link-dir"));
    fs.symlinkSync("../../../../../../../../..", path.join(root, "sub", "link-up"));
  });
  afterAll(async () => {
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
  const encoded = [
    "%2e%2e%2fsecret.txt",
    "%2E%2E/%2E%2E/etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e%5c%2e%2e%5csecret.txt",
    "%252e%252e%252fsecret.txt",
    "..%252f..%252f",
    "%c0%ae%c0%ae/secret.txt",
  ];

  const get = (p: string, query: string) => sendRaw(suite.url, "GET", `${p}?${query}`);
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
    const list = await suite.api.get<{ files: Array<{ path: string }> }>("artifacts/list", {
      run_id: runId,
    });
    expect(list.status).toBe(200);
    expect(list.body.files.map((f) => f.path)).toEqual(["sub"]);
    const sub = await suite.api.get<{ files: Array<{ path: string }> }>("artifacts/list", {
      run_id: runId,
      path: "sub",
    });
    expect(sub.body.files.map((f) => f.path)).toEqual(["sub/ok.txt"]);
    const file = await get("/api/2.0/preview/tracker/artifacts/get", q({ run_uuid: runId, path: "sub/ok.txt" }));
    expect(file.status).toBe(200);
    expect(file.text).toBe("fine");
  });

  it("does not serve runs whose artifact location lies outside the artifact root", async () => {
    for (const location of [
      outside,
      `file://${outside}`,
      `${suite.server.dataDir}/artifacts/../../${path.basename(outside)}`,
    ]) {
      const exp = (
        await suite.api.post<{ experiment_id: string }>("experiments/create", {
          name: `elsewhere ${location}`,
          artifact_location: location,
        })
      ).body.experiment_id;
      const run = (
        await suite.api.post<{ run: { info: { run_id: string; artifact_uri: string } } }>("runs/create", {
          experiment_id: exp,
        })
      ).body.run.info;
      const dir = run.artifact_uri.replace(/^file:\/\//, "");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "secret.txt"), SECRET);
      const list = await suite.api.get("artifacts/list", { run_id: run.run_id });
      expect(list.status, `${location}: ${JSON.stringify(list.body)}`).toBe(400);
      expect(list.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
      const got = await get("/api/2.0/preview/tracker/artifacts/get", q({ run_uuid: run.run_id, path: "secret.txt" }));
      expect(got.status).toBe(400);
      expect(got.text).not.toContain(SECRET);
    }
    const other = (
      await suite.api.post<{ experiment_id: string }>("experiments/create", {
        name: "other host",
        artifact_location: "file://elsewhere.example/x",
      })
    ).body.experiment_id;
    const run = (await suite.api.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: other }))
      .body.run.info;
    expect((await suite.api.get("artifacts/list", { run_id: run.run_id })).status).toBe(400);
  });
});

describe.each(testDatabases())("security headers (%s)", (kind) => {
  // Local artifact folders (as with --default-artifact-root): the test writes into them directly.
  const suite = useTestServer(kind, { proxyArtifacts: false });
  let runId: string;
  beforeAll(async () => {
    const exp = (await suite.preview.post<{ experiment_id: number }>("experiments/create", { name: "headers" })).body
      .experiment_id;
    const run = (
      await suite.preview.post<{ run: { info: { run_uuid: string; artifact_uri: string } } }>("runs/create", {
        experiment_id: exp,
      })
    ).body.run.info;
    runId = run.run_uuid;
    fs.mkdirSync(run.artifact_uri, { recursive: true });
    fs.writeFileSync(path.join(run.artifact_uri, "page.html"), "<script>alert(1)</script>");
  });

  it("sets helmet's headers on every kind of answer", async () => {
    const answers = {
      health: await sendRaw(suite.url, "GET", "/health"),
      ok: await sendRaw(suite.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=0"),
      invalid: await sendRaw(suite.url, "POST", "/api/2.0/tracker/experiments/create", "{}", {
        "content-type": "application/json",
      }),
      notJson: await sendRaw(suite.url, "POST", "/api/2.0/tracker/experiments/create", "{oops", {
        "content-type": "application/json",
      }),
      missing: await sendRaw(suite.url, "GET", "/api/2.0/tracker/experiments/get?experiment_id=987654"),
      unknown: await sendRaw(suite.url, "GET", "/nothing/here"),
      tooLarge: await sendRaw(
        suite.url,
        "POST",
        "/api/2.0/tracker/experiments/create",
        JSON.stringify({ name: "x".repeat(1_100_000) }),
      ),
      artifact: await sendRaw(
        suite.url,
        "GET",
        `/api/2.0/preview/tracker/artifacts/get?run_uuid=${runId}&path=page.html`,
      ),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const h = answer.headers;
      expect(h["content-security-policy"], name).toMatch(/default-src 'none'/);
      expect(h["content-security-policy"], name).toMatch(/frame-ancestors 'none'/);
      expect(h["x-content-type-options"], name).toBe("nosniff");
      expect(h["x-frame-options"], name).toBe("DENY");
      expect(h["strict-transport-security"], name).toMatch(/max-age=\d+/);
      expect(h["referrer-policy"], name).toBe("no-referrer");
      expect(h["cross-origin-resource-policy"], name).toBe("same-origin");
      expect(h["x-powered-by"], name).toBeUndefined();
    }
    expect(answers.artifact.status).toBe(200);
    expect(answers.artifact.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("answers requests Node's parser refuses (oversized URL or headers, garbage) with the JSON error body", async () => {
    const longUrl = await sendRaw(
      suite.url,
      "GET",
      `/api/2.0/tracker/experiments/get-by-name?experiment_name=${"a".repeat(20_000)}`,
    );
    expect(errorAnswerProblems(longUrl)).toEqual([]);
    expect(JSON.parse(longUrl.text).error_code).toBe("BAD_REQUEST");
    const bigHeader = await sendRaw(suite.url, "GET", "/health", undefined, { "x-filler": "b".repeat(20_000) });
    expect(errorAnswerProblems(bigHeader)).toEqual([]);
    const net = await import("node:net");
    const garbage = await new Promise<string>((resolve) => {
      const socket = net.connect(suite.server.port, "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toMatchObject({ error_code: "BAD_REQUEST" });
  });
});
