/**
 * A router for the recording fetch (Recorder's `route`) that sends each request to the next of
 * several servers in turn, as a round-robin load balancer does: requests built for `urls[0]` (the
 * clients' base URL) go to urls[0], urls[1], ..., urls[n-1], urls[0], ... Requests to any other
 * origin pass unchanged. The body is read first, so the request can be rebuilt for another origin.
 */
export function roundRobin(urls: readonly string[]): (request: Request) => Promise<Request> {
  if (urls.length === 0) throw new Error("roundRobin needs at least one URL");
  const origins = urls.map((u) => new URL(u).origin);
  let next = 0;
  return async (request) => {
    const url = new URL(request.url);
    if (url.origin !== origins[0]) return request;
    const target = origins[next]!;
    next = (next + 1) % origins.length;
    if (target === url.origin) return request;
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return new Request(`${target}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body,
      redirect: request.redirect,
      signal: request.signal,
    });
  };
}
