// Answers fetched before the page asks for them (a page's early requests, started before the
// session check and the first render): the page's first identical request (method, URL, body)
// takes the answer instead of sending it again. An unclaimed answer is dropped after a while, a
// failed one is never used (the page then sends its own request).

/** How long an early answer waits for the page's request. */
const KEEP_MS = 15_000;

const early = new Map<string, Promise<Response | undefined>>();

async function keyOf(request: Request): Promise<string> {
  const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text();
  return `${request.method} ${request.url} ${body}`;
}

/** The fetch of the early requests' client: sends, and keeps a copy of a good answer for the page. */
export async function fetchEarly(request: Request): Promise<Response> {
  const key = await keyOf(request);
  const answer = globalThis.fetch(request);
  // Copied before the early client reads the body (this callback runs first).
  early.set(
    key,
    answer.then(
      (response) => (response.ok ? response.clone() : undefined),
      () => undefined,
    ),
  );
  setTimeout(() => early.delete(key), KEEP_MS);
  return answer;
}

/** The page's fetch: the early answer to the same request when there is a good one, else the network. */
export async function fetchOrEarly(request: Request): Promise<Response> {
  // Only reads are sent early (GET, and POST searches); a PUT's body (an upload) is never read here.
  if (early.size > 0 && (request.method === "GET" || request.method === "POST")) {
    const key = await keyOf(request);
    const kept = early.get(key);
    if (kept) {
      early.delete(key);
      const answer = await kept;
      if (answer) return answer;
    }
  }
  return globalThis.fetch(request);
}
