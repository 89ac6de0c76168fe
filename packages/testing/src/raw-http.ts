import net from "node:net";

/** HTTP/1.1 over a bare socket, for requests whose timing a test must control byte by byte. */

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponse(raw: Buffer): { response: RawResponse; complete: boolean } | undefined {
  let text = raw.toString("latin1");
  // Skip interim answers (100 Continue).
  while (/^HTTP\/1\.1 1\d\d /.test(text)) {
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) return undefined;
    text = text.slice(end + 4);
  }
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyBytes = Buffer.from(text.slice(headEnd + 4), "latin1");
  const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  const complete = length !== undefined && bodyBytes.length >= length;
  return { response: { status, headers, body: bodyBytes.subarray(0, length).toString("utf8") }, complete };
}

/** Reads from the socket until a complete response (by Content-Length) or the end of the stream. */
function readResponse(socket: net.Socket, already: Buffer[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks = [...already];
    const check = (ended: boolean) => {
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed && (parsed.complete || ended)) {
        cleanup();
        resolve(parsed.response);
      } else if (ended) {
        cleanup();
        reject(
          new Error(
            `connection ended before a complete response: ${Buffer.concat(chunks).toString("latin1").slice(0, 300)}`,
          ),
        );
      }
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      check(false);
    };
    const onEnd = () => check(true);
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onEnd);
      socket.off("error", onError);
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", onError);
    check(false);
  });
}

export interface HeldRequest {
  socket: net.Socket;
  /** Sends the body and reads the answer. */
  finish(): Promise<RawResponse>;
}

/**
 * Sends a request's headers with `Expect: 100-continue` and waits for the server's `100 Continue`:
 * from then on the request is certainly in flight inside the server, which waits for the body.
 */
export async function holdRequest(
  port: number,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<HeldRequest> {
  const socket = net.connect(port, "127.0.0.1");
  // Errors are reported through the promises below; never as an uncaught 'error' event.
  socket.on("error", () => undefined);
  const payload = Buffer.from(body, "utf8");
  const head =
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n` +
    `Expect: 100-continue\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`;
  const early: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      early.push(chunk);
      const text = Buffer.concat(early).toString("latin1");
      if (text.includes("\r\n\r\n")) {
        socket.off("data", onData);
        socket.off("error", reject);
        if (/^HTTP\/1\.1 100 /.test(text)) resolve();
        else reject(new Error(`expected 100 Continue, got ${text.slice(0, 200)}`));
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("connect", () => socket.write(head));
  });
  // The interim answer is consumed; whatever followed it belongs to the final answer.
  const rest = Buffer.concat(early)
    .toString("latin1")
    .replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, "");
  return {
    socket,
    async finish() {
      const answer = readResponse(socket, rest ? [Buffer.from(rest, "latin1")] : []);
      socket.write(payload);
      const response = await answer;
      socket.destroy();
      return response;
    },
  };
}

/** One keep-alive connection on which a test sends requests one after another, as a client pool would. */
export interface KeepAliveConnection {
  socket: net.Socket;
  /** Resolves when the server (or the test) closed the connection. */
  closed: Promise<void>;
  /** Sends a GET on this connection and reads its answer. */
  get(path: string): Promise<RawResponse>;
}

export async function keepAliveConnection(port: number): Promise<KeepAliveConnection> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    closed,
    async get(path) {
      const answer = readResponse(socket, []);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
      return answer;
    },
  };
}

/** Opens a keep-alive connection, completes one GET on it and leaves it open and idle. */
export async function idleKeepAlive(
  port: number,
  path = "/health",
): Promise<{ socket: net.Socket; closed: Promise<void>; response: RawResponse }> {
  const connection = await keepAliveConnection(port);
  return { socket: connection.socket, closed: connection.closed, response: await connection.get(path) };
}
