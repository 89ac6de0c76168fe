import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  artifactStoreConfig,
  holdRequest,
  rawRequest,
  storedArtifacts,
  testArtifactStores,
  useTestServer,
} from "@tracker/testing";

/**
 * What one server process takes on at once (issue 28, items 3 and 6): bodies that stall are cut
 * after the body timeout while slow bodies that move are not; beyond the in-flight bound clients
 * get 503 with Retry-After, the health probes excepted; text that cannot be stored is refused. The
 * upload cases run with the artifacts in a local folder and, when TEST_S3_URL is set, in S3.
 */

const A = "/api/2.0/mlflow-artifacts/artifacts";
const BODY_TIMEOUT_MS = 400;

interface Stalled {
  /** Milliseconds from the last byte sent to the server closing the connection. */
  closedAfterMs: Promise<number>;
  /** What the server answered before closing, if anything. */
  received(): string;
}

/** Sends a request's head and `sent` of its `announced` body bytes, then nothing, keeping the connection open. */
function stall(port: number, method: string, target: string, announced: number, sent: Buffer | string): Stalled {
  const socket = net.connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => undefined);
  let sentAt = Date.now();
  const type = method === "POST" ? "Content-Type: application/json\r\n" : "";
  socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${type}Content-Length: ${announced}\r\n\r\n`);
  socket.write(sent, () => {
    sentAt = Date.now();
  });
  const closedAfterMs = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - sentAt)));
  // Never left open by a failing test.
  setTimeout(() => socket.destroy(), 20_000).unref();
  return { closedAfterMs, received: () => Buffer.concat(chunks).toString("latin1") };
}

/** A PUT whose body trickles: `pieces` pieces of `size` bytes, one every `everyMs`. */
function trickle(port: number, target: string, pieces: number, size: number, everyMs: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ status: Number(text.split(" ")[1]), text });
    });
    socket.write(
      `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: ${pieces * size}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => {
      socket.write(Buffer.alloc(size, 0x62));
      if (++sent === pieces) clearInterval(timer);
    }, everyMs);
  });
}

describe.each(testArtifactStores())("body timeout (an idle limit, not a total one), %s store", (store) => {
  const suite = useTestServer("pglite", { bodyTimeoutMs: BODY_TIMEOUT_MS, ...artifactStoreConfig(store) });
  const stored = () => storedArtifacts(suite.server.config.artifactsDestination);
  /** Every file the server keeps: on disk beside its database (a folder store, its upload temporaries), and in S3. */
  const kept = async () => {
    const onDisk = fs
      .readdirSync(suite.server.dataDir, { recursive: true })
      .map(String)
      .filter(
        (f) =>
          !f.startsWith("pgdata") &&
          fs.statSync(path.join(suite.server.dataDir, f), { throwIfNoEntry: false })?.isFile(),
      );
    const inS3 = store === "s3" ? (await stored().files("")).map((f) => `s3:${f}`) : [];
    return [...onDisk, ...inS3];
  };

  it("closes the connection of a JSON body that stalls, and of an upload that stalls, leaving no file", async () => {
    // The first request through MLflow's paths compiles their validator (seconds on a busy machine,
    // with the event loop blocked): done before anything is timed.
    expect((await fetch(`${suite.url}${A}/1/warm.txt`, { method: "PUT", body: "warm" })).status).toBe(200);
    const json = stall(suite.server.port, "POST", "/api/2.0/mlflow/experiments/create", 100, '{"name": "sta');
    const upload = stall(suite.server.port, "PUT", `${A}/1/stalled.bin`, 1000, "abc");
    for (const stalled of [json, upload]) {
      const after = await stalled.closedAfterMs;
      expect(after).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(after).toBeLessThan(BODY_TIMEOUT_MS * 1.25 + 1500);
    }
    // The upload's temporary file (or S3 upload) goes as soon as the server has seen the connection close.
    for (let i = 0; i < 100 && (await kept()).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await kept()).toEqual([store === "s3" ? "s3:1/warm.txt" : path.join("artifacts", "1", "warm.txt")]);
  });

  it("never cuts a slow body that moves: a byte burst every half body timeout for 5 body timeouts", async () => {
    const pieces = 10;
    const answer = await trickle(suite.server.port, `${A}/1/slow.bin`, pieces, 100, BODY_TIMEOUT_MS / 2);
    expect(answer.status, answer.text).toBe(200);
    expect((await stored().read("1/slow.bin"))?.length).toBe(pieces * 100);
  });

  it("leaves requests without a body and complete bodies alone, however long they are kept", async () => {
    const answer = await rawRequest(
      suite.server.port,
      "POST",
      "/api/2.0/mlflow/experiments/create",
      { "Content-Type": "application/json", "Content-Length": 15 },
      '{"name": "ok1"}',
    );
    expect(answer?.status).toBe(200);
    await new Promise((r) => setTimeout(r, BODY_TIMEOUT_MS * 2));
    expect((await fetch(`${suite.url}/health`)).status).toBe(200);
  });
});

describe.each(testArtifactStores())("in-flight bound, %s store", (store) => {
  const MAX = 3;
  const suite = useTestServer("pglite", { maxInFlightRequests: MAX, ...artifactStoreConfig(store) });
  const create = (name: string) => JSON.stringify({ name });

  it("answers 503 TEMPORARILY_UNAVAILABLE with Retry-After beyond the bound, keeps the health probes open, and recovers", async () => {
    const held = await Promise.all(
      Array.from({ length: MAX }, (_, i) =>
        holdRequest(suite.server.port, "POST", "/api/2.0/mlflow/experiments/create", create(`held-${i}`)),
      ),
    );
    const refused = await rawRequest(
      suite.server.port,
      "POST",
      "/api/2.0/mlflow/experiments/create",
      { "Content-Type": "application/json", "Content-Length": create("over").length },
      create("over"),
    );
    expect(refused?.status).toBe(503);
    expect(refused?.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused!.text)).toMatchObject({ error_code: "TEMPORARILY_UNAVAILABLE" });
    // An upload beyond the bound is refused before its body is read, and its connection closed.
    const upload = await rawRequest(suite.server.port, "PUT", `${A}/1/over.bin`, { "Content-Length": 1 << 20 });
    expect(upload?.status).toBe(503);
    expect(upload?.headers.connection).toBe("close");
    expect(await storedArtifacts(suite.server.config.artifactsDestination).read("1/over.bin")).toBeUndefined();
    for (const probe of ["/health", "/health/live", "/health/ready"])
      expect((await fetch(`${suite.url}${probe}`)).status, probe).toBe(200);
    const finished = await Promise.all(held.map((h) => h.finish()));
    expect(finished.map((a) => a.status)).toEqual(held.map(() => 200));
    const after = await fetch(`${suite.url}/api/2.0/mlflow/experiments/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: create("after"),
    });
    expect(after.status).toBe(200);
  });

  it("frees the place of a request whose client went away", async () => {
    const held = await Promise.all(
      Array.from({ length: MAX }, (_, i) =>
        holdRequest(suite.server.port, "POST", "/api/2.0/mlflow/experiments/create", create(`gone-${i}`)),
      ),
    );
    for (const h of held) h.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const answers = await Promise.all(
      Array.from({ length: MAX }, (_, i) =>
        fetch(`${suite.url}/api/2.0/mlflow/experiments/create`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: create(`back-${i}`),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  });
});

describe("text that cannot be stored", () => {
  const suite = useTestServer("pglite");

  it("refuses a lone surrogate (JSON `\\ud800`) with 400 INVALID_PARAMETER_VALUE instead of storing U+FFFD", async () => {
    const post = (body: string) =>
      rawRequest(
        suite.server.port,
        "POST",
        "/api/2.0/mlflow/experiments/create",
        { "Content-Type": "application/json", "Content-Length": body.length },
        body,
      );
    for (const body of [
      '{"name": "a\\ud800b"}',
      '{"name": "x\\udfff"}',
      '{"name": "ok", "tags": [{"key": "k\\ud800", "value": "v"}]}',
    ]) {
      const answer = await post(body);
      expect(answer?.status, body).toBe(400);
      expect(JSON.parse(answer!.text)).toMatchObject({
        error_code: "INVALID_PARAMETER_VALUE",
        message: expect.stringContaining("surrogate"),
      });
    }
    const pair = await post('{"name": "emoji \\ud83d\\ude00"}');
    expect(pair?.status).toBe(200);
    const id = JSON.parse(pair!.text).experiment_id as string;
    const got = await fetch(`${suite.url}/api/2.0/mlflow/experiments/get?experiment_id=${id}`);
    expect(((await got.json()) as { experiment: { name: string } }).experiment.name).toBe("emoji \u{1F600}");
  });
});
