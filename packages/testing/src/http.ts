/** A small JSON-over-HTTP client for tests (fetch), and per-revision helpers on top of it. */

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends one request; GET inputs go to the query string (arrays as repeated keys), others as JSON. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  pathname: string,
  input?: Record<string, unknown> | string,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  let url = `${baseUrl}${pathname}`;
  let body: string | undefined;
  if (method === "GET" && input && typeof input === "object") {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(input)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
    }
    url += `?${params.toString()}`;
  } else if (input !== undefined) {
    body = typeof input === "string" ? input : JSON.stringify(input);
  }
  const response = await fetch(url, {
    method,
    body,
    headers: body !== undefined ? { "content-type": "application/json", ...headers } : headers,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** The server's base URL, or a function giving it (for a server that a `beforeAll` starts later). */
export type BaseUrl = string | (() => string);

/** A tiny client for tests: `api.post("experiments/create", {...})` under a revision's prefix. */
export function apiAt(baseUrl: BaseUrl, prefix: string) {
  const base = typeof baseUrl === "string" ? () => baseUrl : baseUrl;
  const at = (op: string) => `/api/${prefix}/${op}`;
  return {
    get: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) =>
      call<T>(base(), "GET", at(op), input),
    post: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown> | string) =>
      call<T>(base(), "POST", at(op), input),
    patch: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) =>
      call<T>(base(), "PATCH", at(op), input),
    delete: <T = Record<string, unknown>>(op: string, input?: Record<string, unknown>) =>
      call<T>(base(), "DELETE", at(op), input),
  };
}

export type Api = ReturnType<typeof apiAt>;
export const trackingApi = (baseUrl: BaseUrl) => apiAt(baseUrl, "2.0/tracker");
export const previewApi = (baseUrl: BaseUrl) => apiAt(baseUrl, "2.0/preview/tracker");
