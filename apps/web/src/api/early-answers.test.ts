import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchEarly, fetchOrEarly } from "./early-answers";

const URL_A = "http://tracker.test/api/2.0/tracker/runs/keys?experiment_ids=1";

/** A fetch stub counting what it was sent, answering `status` with a body naming the request. */
function stubFetch(status = 200) {
  const sent: string[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    sent.push(`${request.method} ${request.url}`);
    return new Response(JSON.stringify({ n: sent.length }), { status });
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("early answers", () => {
  it("gives the page's identical request the early answer, once", async () => {
    const sent = stubFetch();
    expect(await (await fetchEarly(new Request(URL_A))).json()).toEqual({ n: 1 });
    expect(await (await fetchOrEarly(new Request(URL_A))).json()).toEqual({ n: 1 });
    expect(sent).toHaveLength(1);
    // The next identical request goes to the network.
    expect(await (await fetchOrEarly(new Request(URL_A))).json()).toEqual({ n: 2 });
  });

  it("matches a POST by its body", async () => {
    const sent = stubFetch();
    const post = (body: string) => new Request(URL_A, { method: "POST", body });
    await fetchEarly(post('{"a":1}'));
    expect(await (await fetchOrEarly(post('{"a":2}'))).json()).toEqual({ n: 2 });
    expect(await (await fetchOrEarly(post('{"a":1}'))).json()).toEqual({ n: 1 });
    expect(sent).toHaveLength(2);
  });

  it("never hands on a failed early answer: the page sends its own request", async () => {
    const sent = stubFetch(401);
    await fetchEarly(new Request(URL_A));
    expect((await fetchOrEarly(new Request(URL_A))).status).toBe(401);
    expect(sent).toHaveLength(2);
  });
});

describe("early answers: sending", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends a POST before its body is read for the key, and the page's request still takes its answer", async () => {
    const sent = stubFetch();
    const post = () => new Request(URL_A, { method: "POST", body: '{"a":1}' });
    const answer = fetchEarly(post());
    // Sent in the same turn, before any await (reading the body for the key takes a task).
    expect(sent).toHaveLength(1);
    await answer;
    expect(await (await fetchOrEarly(post())).json()).toEqual({ n: 1 });
    expect(sent).toHaveLength(1);
  });

  it("a page request made while an early POST's key is still being read waits for it", async () => {
    const sent = stubFetch();
    const post = () => new Request(URL_A, { method: "POST", body: '{"b":1}' });
    void fetchEarly(post());
    expect(await (await fetchOrEarly(post())).json()).toEqual({ n: 1 });
    expect(sent).toHaveLength(1);
  });
});
