import net from "node:net";

/**
 * HTTP/1.1 over a bare socket, for requests a test must control byte by byte: paths sent as they
 * are (fetch would resolve `..`), bodies cut short, requests held in flight, keep-alive connections.
 * One parser reads every answer; `sendRaw` (checks.ts) gives fetch's answers the same shape.
 */

/** An HTTP answer as tests read it. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body (chunked transfer decoded), as UTF-8 text. */
  text: string;
}

/** The body of a chunked answer, or undefined until its last chunk has arrived. */
function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at, "latin1");
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) throw new Error(`bad chunk size line: ${bytes.subarray(at, lineEnd).toString("latin1")}`);
    if (size === 0) return bytes.indexOf("\r\n\r\n", lineEnd, "latin1") === -1 ? undefined : Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Reads the first final answer (interim 1xx answers skipped) from the bytes received so far, once it
 * is whole: by Content-Length, by the last chunk, at once for 204 and 304, else when the connection
 * `ended`. Undefined while it is not whole, and for an answer cut short.
 */
export function parseAnswer(received: Buffer, ended: boolean): RawAnswer | undefined {
  let bytes = received;
  for (;;) {
    const headEnd = bytes.indexOf("\r\n\r\n", 0, "latin1");
    if (headEnd === -1) return undefined;
    const [statusLine = "", ...headerLines] = bytes.subarray(0, headEnd).toString("latin1").split("\r\n");
    const status = Number(statusLine.split(" ")[1]);
    const rest = bytes.subarray(headEnd + 4);
    if (status >= 100 && status < 200) {
      bytes = rest;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body: Buffer | undefined;
    if (status === 204 || status === 304) body = Buffer.alloc(0);
    else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      body = rest.length >= length ? rest.subarray(0, length) : undefined;
    } else if (/\bchunked\b/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(rest);
    else body = ended ? rest : undefined;
    return body === undefined ? undefined : { status, headers, text: body.toString("utf8") };
  }
}

/** Reads from the socket until a whole answer arrives; fails when the connection ends before one. */
function readAnswer(socket: net.Socket, already: Buffer[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks = [...already];
    const check = (ended: boolean) => {
      const answer = parseAnswer(Buffer.concat(chunks), ended);
      if (answer) {
        cleanup();
        resolve(answer);
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

/**
 * Sends `head` (request line and headers, without the blank line) and then `body`, optionally
 * half-closing (`end`) or destroying the connection afterwards, and resolves with the first answer
 * (or undefined when the connection closes without a whole one).
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string | number> = {},
  body: Buffer | string = "",
  then: "wait" | "end" | "destroy" = "wait",
): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let settled = false;
    const done = (answer: RawAnswer | undefined) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      const answer = parseAnswer(Buffer.concat(received), false);
      if (answer) done(answer);
    });
    socket.on("close", () => done(parseAnswer(Buffer.concat(received), true)));
    socket.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE"
        ? done(parseAnswer(Buffer.concat(received), true))
        : reject(err),
    );
    const head = [
      `${method} ${target} HTTP/1.1`,
      "Host: 127.0.0.1",
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ].join("\r\n");
    socket.write(`${head}\r\n\r\n`);
    socket.write(body, () => {
      if (then === "end") socket.end();
      if (then === "destroy") done(undefined);
    });
  });
}

/** A chunked body (each piece one chunk) with its last chunk. */
export const chunked = (...pieces: Buffer[]): Buffer =>
  Buffer.concat([
    ...pieces.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from("\r\n")]),
    Buffer.from("0\r\n\r\n"),
  ]);

export interface HeldRequest {
  socket: net.Socket;
  /** Sends the body and reads the answer. */
  finish(): Promise<RawAnswer>;
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
      const answer = readAnswer(socket, rest ? [Buffer.from(rest, "latin1")] : []);
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
  get(path: string): Promise<RawAnswer>;
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
      const answer = readAnswer(socket, []);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
      return answer;
    },
  };
}

/** Opens a keep-alive connection, completes one GET on it and leaves it open and idle. */
export async function idleKeepAlive(
  port: number,
  path = "/health",
): Promise<{ socket: net.Socket; closed: Promise<void>; response: RawAnswer }> {
  const connection = await keepAliveConnection(port);
  return { socket: connection.socket, closed: connection.closed, response: await connection.get(path) };
}
