/**
 * What the log keeps of a request and its answer (pino-http serializers, applied to pino's
 * standard serialization): method, URL, id and status; headers and the client's address only when
 * debug logging is on (a response's headers alone are about 1 KB with the security headers).
 */

interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
  remotePort?: number;
}

interface SerializedResponse {
  statusCode?: number;
  headers?: Record<string, unknown>;
}

export function requestLogSerializers(debug: () => boolean) {
  return {
    req: (req: SerializedRequest) => (debug() ? req : { id: req.id, method: req.method, url: req.url }),
    res: (res: SerializedResponse) => (debug() ? res : { statusCode: res.statusCode }),
  };
}
