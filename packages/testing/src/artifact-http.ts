import net from "node:net";

/** Raw HTTP for artifact tests: paths sent byte for byte (fetch would resolve `..`), bodies cut short. */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawAnswer | undefined {
  while (/^HTTP\/1\.1 1\d\d /.test(text)) {
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) return undefined;
    text = text.slice(end + 4);
  }
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, headEnd).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines)
    headers[line.slice(0, line.indexOf(":")).trim().toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  const body = text.slice(headEnd + 4);
  const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  if (length !== undefined && Buffer.byteLength(body, "latin1") < length) return undefined;
  return {
    status: Number(statusLine!.split(" ")[1]),
    headers,
    body: Buffer.from(body, "latin1").subarray(0, length).toString("utf8"),
  };
}

/**
 * Sends `head` (request line and headers, without the blank line) and then `body`, optionally
 * half-closing (`end`) or destroying the connection afterwards, and resolves with the first answer
 * (or undefined when the connection closes without one).
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
    let received = "";
    let settled = false;
    const done = (answer: RawAnswer | undefined) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const answer = parse(received);
      if (answer) done(answer);
    });
    socket.on("close", () => done(parse(received)));
    socket.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? done(parse(received)) : reject(err),
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
