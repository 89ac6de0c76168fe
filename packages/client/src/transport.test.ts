import { describe, expect, it } from "vitest";
import { TrackerClient } from "./client.js";
import { trackerError } from "./testing/expect-error.js";
import { createTransport, isIdempotent, type FetchLike, type TransportOptions } from "./transport.js";

const BASE = "http://tracker.test/api/2.0/tracker";
const FAST: TransportOptions["retry"] = { retries: 3, minDelayMs: 1, maxDelayMs: 5 };

type Step = Response | Error | ((request: Request) => Promise<Response>);

/** A fetch that plays `steps` in order (the last one repeats) and records what it was sent. */
function scripted(...steps: Step[]) {
  const sent: Array<{ method: string; url: string; body: string }> = [];
  const fetch: FetchLike = async (request) => {
    sent.push({ method: request.method, url: request.url, body: await request.clone().text() });
    const step = steps[Math.min(sent.length - 1, steps.length - 1)];
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(request);
    return step.clone();
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const unavailable = () => json(503, { error_code: "TEMPORARILY_UNAVAILABLE", message: "database unreachable" });
const refused = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
const reset = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
const get = (op: string) => new Request(`${BASE}/${op}`);
const post = (op: string, body: unknown, signal?: AbortSignal) =>
  new Request(`${BASE}/${op}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
    signal,
  });

describe("isIdempotent", () => {
  it("counts GETs and the read-only POSTs", () => {
    expect(isIdempotent(get("runs/get"))).toBe(true);
    expect(isIdempotent(post("runs/search", {}))).toBe(true);
    expect(isIdempotent(post("experiments/search", {}))).toBe(true);
    expect(
      isIdempotent(new Request("http://x/api/2.0/tracker/registered-models/get-latest-versions", { method: "POST" })),
    ).toBe(true);
    expect(isIdempotent(post("runs/log-metric", {}))).toBe(false);
    expect(
      isIdempotent(new Request("http://x/api/2.0/preview/tracker/registered-models/delete", { method: "DELETE" })),
    ).toBe(false);
  });
});

describe("createTransport retries", () => {
  it("retries a GET on 503 and returns the later success", async () => {
    const { fetch, sent } = scripted(unavailable(), unavailable(), json(200, { ok: 1 }));
    const response = await createTransport({ fetch, retry: FAST })(get("runs/get"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: 1 });
    expect(sent).toHaveLength(3);
  });

  it("retries a GET on network errors, 502 and 504", async () => {
    const { fetch, sent } = scripted(reset(), json(502, {}), json(504, {}), json(200, {}));
    expect((await createTransport({ fetch, retry: FAST })(get("runs/get"))).status).toBe(200);
    expect(sent).toHaveLength(4);
  });

  it("gives up after the configured retries and returns the last answer", async () => {
    const { fetch, sent } = scripted(unavailable());
    const response = await createTransport({ fetch, retry: { ...FAST, retries: 2 } })(get("runs/get"));
    expect(response.status).toBe(503);
    expect(sent).toHaveLength(3);
  });

  it("retries a write on 503, resending the same body", async () => {
    const { fetch, sent } = scripted(unavailable(), json(200, {}));
    const response = await createTransport({ fetch, retry: FAST })(post("runs/log-metric", { key: "m", value: 1 }));
    expect(response.status).toBe(200);
    expect(sent.map((s) => s.body)).toEqual(['{"key":"m","value":1}', '{"key":"m","value":1}']);
  });

  it("retries a write when the connection was refused, but not after a reset or a 502/500", async () => {
    const refusedOnce = scripted(refused(), json(200, {}));
    expect((await createTransport({ fetch: refusedOnce.fetch, retry: FAST })(post("runs/log-metric", {}))).status).toBe(
      200,
    );
    expect(refusedOnce.sent).toHaveLength(2);

    const resetOnce = scripted(reset(), json(200, {}));
    expect(
      await trackerError(createTransport({ fetch: resetOnce.fetch, retry: FAST })(post("runs/log-metric", {}))),
    ).toMatchObject({
      errorCode: "NETWORK_ERROR",
      status: 0,
    });
    expect(resetOnce.sent).toHaveLength(1);

    for (const status of [500, 502]) {
      const failing = scripted(json(status, { error_code: "INTERNAL_ERROR", message: "boom" }), json(200, {}));
      expect((await createTransport({ fetch: failing.fetch, retry: FAST })(post("runs/create", {}))).status).toBe(
        status,
      );
      expect(failing.sent).toHaveLength(1);
    }
  });

  it("does not retry client errors", async () => {
    const { fetch, sent } = scripted(json(400, { error_code: "INVALID_PARAMETER_VALUE", message: "bad" }));
    expect((await createTransport({ fetch, retry: FAST })(get("runs/get"))).status).toBe(400);
    expect(sent).toHaveLength(1);
  });

  it("honours Retry-After, bounded by maxDelayMs", async () => {
    const { fetch, sent } = scripted(json(429, {}, { "retry-after": "120" }), json(200, {}));
    const started = Date.now();
    await createTransport({ fetch, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 50 } })(get("runs/get"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(sent).toHaveLength(2);
  });

  it("sends once with retry: false", async () => {
    const { fetch, sent } = scripted(unavailable(), json(200, {}));
    expect((await createTransport({ fetch, retry: false })(get("runs/get"))).status).toBe(503);
    expect(sent).toHaveLength(1);
  });
});

describe("createTransport timeouts and aborts", () => {
  const hang = (request: Request) =>
    new Promise<Response>((_, reject) =>
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
    );

  it("fails an attempt that takes longer than timeoutMs with TIMEOUT, after retrying reads", async () => {
    const { fetch, sent } = scripted(hang);
    const error = await trackerError(
      createTransport({ fetch, timeoutMs: 20, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 } })(get("runs/get")),
    );
    expect(error).toMatchObject({ errorCode: "TIMEOUT", status: 0 });
    expect(sent).toHaveLength(2);
  });

  it("does not retry a timed-out write", async () => {
    const { fetch, sent } = scripted(hang);
    expect(
      await trackerError(createTransport({ fetch, timeoutMs: 20, retry: FAST })(post("runs/log-metric", {}))),
    ).toMatchObject({ errorCode: "TIMEOUT" });
    expect(sent).toHaveLength(1);
  });

  it("counts a slow body against the timeout", async () => {
    const slowBody = (request: Request) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{"));
          request.signal.addEventListener("abort", () => controller.error(request.signal.reason), { once: true });
        },
      });
      return Promise.resolve(new Response(body, { status: 200 }));
    };
    const { fetch } = scripted(slowBody);
    expect(await trackerError(createTransport({ fetch, timeoutMs: 20, retry: false })(get("runs/get")))).toMatchObject({
      errorCode: "TIMEOUT",
    });
  });

  it("turns the caller's abort into ABORTED without retrying", async () => {
    const { fetch, sent } = scripted(hang);
    const controller = new AbortController();
    const pending = createTransport({ fetch, retry: FAST })(post("runs/search", {}, controller.signal));
    setTimeout(() => controller.abort(), 10);
    expect(await trackerError(pending)).toMatchObject({ errorCode: "ABORTED", status: 0 });
    expect(sent).toHaveLength(1);
  });
});

describe("TrackerClient over a custom fetch", () => {
  it("sends NaN and infinities as strings and parses them back", async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const client = new TrackerClient({ baseUrl: "http://tracker.test", fetch });
    await client.logMetric("r".repeat(32), "m", NaN, { timestamp: 5, step: 1 });
    await client.logMetric("r".repeat(32), "m", -Infinity, { timestamp: 5 });
    expect(sent.map((s) => JSON.parse(s.body).value)).toEqual(["NaN", "-Infinity"]);

    const history = scripted(json(200, { metrics: [{ key: "m", value: "Infinity", timestamp: 1, step: 0 }] }));
    const reader = new TrackerClient({ baseUrl: "http://tracker.test", fetch: history.fetch });
    expect((await reader.getMetricHistory("r".repeat(32), "m"))[0].value).toBe(Infinity);
  });

  it("sends the bearer token and extra headers, under the API prefix", async () => {
    const seen: Headers[] = [];
    const client = new TrackerClient({
      baseUrl: "http://tracker.test/",
      apiPrefix: "/ajax-api",
      token: "s3cret",
      headers: { "x-team": "ml" },
      fetch: async (request) => {
        seen.push(request.headers);
        expect(request.url).toBe("http://tracker.test/ajax-api/2.0/tracker/experiments/get?experiment_id=0");
        return json(200, { experiment: { experiment_id: "0", name: "Default" } });
      },
    });
    expect((await client.getExperiment("0")).name).toBe("Default");
    expect(seen[0].get("authorization")).toBe("Bearer s3cret");
    expect(seen[0].get("x-team")).toBe("ml");
  });

  it("encodes query values strictly and repeats array keys", async () => {
    const urls: string[] = [];
    const client = new TrackerClient({
      baseUrl: "http://tracker.test",
      fetch: async (request) => {
        urls.push(request.url);
        return json(200, { registered_models: [] });
      },
    });
    await client
      .searchRegisteredModels({ filter: "name = 'it''s (new)!*'", orderBy: ["name DESC", "last_updated_timestamp"] })
      .toArray();
    expect(new URL(urls[0]).search).toBe(
      "?filter=name%20%3D%20%27it%27%27s%20%28new%29%21%2A%27&order_by=name%20DESC&order_by=last_updated_timestamp",
    );
  });

  it("throws UNEXPECTED_RESPONSE for a success that is not JSON, and keeps status for HTML errors", async () => {
    const html = scripted(new Response("<html>hi</html>", { status: 200 }));
    expect(await trackerError(new TrackerClient({ baseUrl: "http://t", fetch: html.fetch }).getRun("x"))).toMatchObject(
      {
        errorCode: "UNEXPECTED_RESPONSE",
      },
    );
    const gateway = scripted(new Response("<html>Bad gateway</html>", { status: 502 }));
    expect(
      await trackerError(new TrackerClient({ baseUrl: "http://t", fetch: gateway.fetch, retry: false }).getRun("x")),
    ).toMatchObject({
      errorCode: "INTERNAL_ERROR",
      status: 502,
    });
  });

  it("retries a read-only POST search on 503 through the client", async () => {
    const { fetch, sent } = scripted(unavailable(), json(200, { runs: [] }));
    const client = new TrackerClient({ baseUrl: "http://t", fetch, retry: FAST });
    expect(await client.searchRuns("0").toArray()).toEqual([]);
    expect(sent).toHaveLength(2);
  });
});
