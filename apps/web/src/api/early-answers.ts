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

/** Early requests whose key is still being read (a POST's body): the page's requests wait for them. */
const keying = new Set<Promise<void>>();

/**
 * The fetch of the early requests' client: sends at once, and keeps a copy of a good answer for
 * the page. The key is read from a copy of the request meanwhile: reading a POST's body takes a
 * task of the main thread, which is busy starting the app (the request waited ~80 ms for it).
 */
export async function fetchEarly(request: Request): Promise<Response> {
  const copy = request.clone();
  const answer = globalThis.fetch(request);
  // Copied before the early client reads the body (this callback runs first).
  const kept = answer.then(
    (response) => (response.ok ? response.clone() : undefined),
    () => undefined,
  );
  // A body that cannot be read (never seen) leaves the answer unkept: the page sends its own.
  const keyed = keyOf(copy).then(
    (key) => {
      early.set(key, kept);
      setTimeout(() => early.delete(key), KEEP_MS);
    },
    () => {},
  );
  keying.add(keyed);
  keyed.finally(() => keying.delete(keyed));
  return answer;
}

/** The page's fetch: the early answer to the same request when there is a good one, else the network. */
export async function fetchOrEarly(request: Request): Promise<Response> {
  // Only reads are sent early (GET, and POST searches); a PUT's body (an upload) is never read here.
  if (keying.size > 0) await Promise.all(keying);
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
