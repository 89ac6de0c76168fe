import http from "node:http";
import net from "node:net";
import { once } from "node:events";
import { gzipSync } from "node:zlib";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST_READ_LIMIT, jsonBody, shortReadLength, type VerifyBody } from "./json-body.js";
import { verifyUtf8 } from "./security.js";

/**
 * jsonBody against express.json with the same options: the same requests to a server with each,
 * the same `req.body` or the same error (status, type, message and properties).
 */

const LIMIT = 1024 * 1024;
const verify: VerifyBody = (req, res, buf, encoding) => verifyUtf8(req, res, buf, encoding);

type Outcome = Record<string, unknown>;

function describeError(err: Record<string, unknown>): Outcome {
  const kept: Outcome = { class: (err as object).constructor.name, message: err.message };
  for (const key of ["status", "statusCode", "expose", "type", "code", "expected", "length", "received", "limit"]) {
    kept[key] = err[key];
  }
  const body = err.body;
  kept.body = Buffer.isBuffer(body) ? { buffer: body.toString("base64") } : body;
  return kept;
}

interface Server {
  url: URL;
  outcomes: Outcome[];
  /** Called with each request's first body chunk, before the reader sees it. */
  firstData?: () => void;
  close: () => Promise<void>;
}

async function serve(reader: RequestHandler): Promise<Server> {
  const outcomes: Outcome[] = [];
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  const served: Server = {
    url: new URL("http://127.0.0.1/"),
    outcomes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const watch: RequestHandler = (req, _res, next) => {
    req.once("data", () => served.firstData?.());
    next();
  };
  app.post("/", watch, reader, (req, res) => {
    const outcome = { body: (req as { body?: unknown }).body, readable: req.readable };
    outcomes.push(outcome);
    res.json(outcome);
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const outcome = describeError(err as Record<string, unknown>);
    outcomes.push(outcome);
    res.status(200).json(outcome);
  };
  app.use(onError);
  await once(server, "listening");
  served.url.port = String((server.address() as net.AddressInfo).port);
  return served;
}

interface Sent {
  headers: Record<string, string>;
  body: Buffer | string;
  /** Sent with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

async function send(server: Server, { headers, body, chunked }: Sent): Promise<Outcome> {
  const data = typeof body === "string" ? Buffer.from(body) : body;
  const all = chunked ? headers : { "content-length": String(data.length), ...headers };
  const req = http.request(server.url, { method: "POST", headers: all });
  if (chunked) {
    req.write(data.subarray(0, 1));
    req.end(data.subarray(1));
  } else req.end(data);
  const [res] = (await once(req, "response")) as [http.IncomingMessage];
  let text = "";
  for await (const chunk of res) text += chunk;
  return JSON.parse(text) as Outcome;
}

const json = { "content-type": "application/json" };
const cases: Array<[string, Sent]> = [
  ["an object", { headers: json, body: '{"run_id":"a","key":"m","value":1.5,"timestamp":1}' }],
  ["nulls and nesting", { headers: json, body: '{"a":null,"b":[1,{"c":null}]}' }],
  ["a number (not strict)", { headers: json, body: "42" }],
  ["a string (not strict)", { headers: json, body: '"x"' }],
  ["an empty body", { headers: json, body: "" }],
  ["whitespace only", { headers: json, body: "  \n" }],
  ["invalid JSON", { headers: json, body: '{"a":' }],
  [
    "a byte-order mark",
    { headers: json, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]) },
  ],
  ["invalid UTF-8", { headers: json, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) }],
  ["multi-byte UTF-8", { headers: json, body: '{"name":"é 日本 🎉"}' }],
  ["charset=utf-8", { headers: { "content-type": "application/json; charset=utf-8" }, body: '{"a":1}' }],
  [
    "charset=UTF-8, upper case type",
    { headers: { "content-type": "Application/JSON;charset=UTF-8" }, body: '{"a":1}' },
  ],
  ["charset=utf-16", { headers: { "content-type": "application/json; charset=utf-16" }, body: '{"a":1}' }],
  ["charset=latin1", { headers: { "content-type": "application/json; charset=latin1" }, body: '{"a":1}' }],
  ["no Content-Type", { headers: {}, body: '{"a":1}' }],
  ["text/plain", { headers: { "content-type": "text/plain" }, body: '{"a":1}' }],
  ["a malformed Content-Type", { headers: { "content-type": "json" }, body: '{"a":1}' }],
  ["Content-Encoding: identity", { headers: { ...json, "content-encoding": "IDENTITY" }, body: '{"a":1}' }],
  ["gzip", { headers: { ...json, "content-encoding": "gzip" }, body: gzipSync('{"a":1}') }],
  ["an unknown Content-Encoding", { headers: { ...json, "content-encoding": "foo" }, body: '{"a":1}' }],
  ["chunked", { headers: json, body: '{"a":[1,2,3]}', chunked: true }],
  ["a body past the short read", { headers: json, body: JSON.stringify({ a: "x".repeat(FAST_READ_LIMIT) }) }],
  ["a body past the limit", { headers: json, body: JSON.stringify({ a: "x".repeat(LIMIT) }) }],
];

describe("jsonBody", () => {
  let mine: Server;
  let theirs: Server;
  beforeAll(async () => {
    mine = await serve(jsonBody({ limit: LIMIT, verify }));
    theirs = await serve(express.json({ limit: LIMIT, type: () => true, strict: false, verify }));
  });
  afterAll(async () => {
    await mine?.close();
    await theirs?.close();
  });

  it.each(cases)("gives express.json's result for %s", async (_name, sent) => {
    const expected = await send(theirs, sent);
    expect(await send(mine, sent)).toEqual(expected);
  });

  it("takes the short read for small JSON bodies only", () => {
    const request = (headers: Record<string, string>) => {
      const req = new http.IncomingMessage(new net.Socket());
      req.headers = headers;
      return req;
    };
    expect(shortReadLength(request({ ...json, "content-length": "7" }), LIMIT)).toBe(7);
    expect(shortReadLength(request({ "content-length": "0" }), LIMIT)).toBe(0);
    expect(shortReadLength(request({ ...json, "content-length": String(FAST_READ_LIMIT + 1) }), LIMIT)).toBeUndefined();
    expect(shortReadLength(request({ ...json, "transfer-encoding": "chunked" }), LIMIT)).toBeUndefined();
    expect(
      shortReadLength(request({ ...json, "content-length": "7", "content-encoding": "gzip" }), LIMIT),
    ).toBeUndefined();
    expect(shortReadLength(request({ "content-type": "text/plain", "content-length": "7" }), LIMIT)).toBeUndefined();
    expect(shortReadLength(request({ ...json, "content-length": "70" }), 60)).toBeUndefined();
  });

  it("passes on the same error for a request aborted mid-body", async () => {
    const abort = async (server: Server): Promise<Outcome> => {
      const before = server.outcomes.length;
      const socket = net.connect(Number(server.url.port), "127.0.0.1");
      await once(socket, "connect");
      // The client goes once the server has read the first bytes of the body.
      const firstData = new Promise<void>((resolve) => {
        server.firstData = resolve;
      });
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
      await firstData;
      socket.destroy();
      while (server.outcomes.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      return server.outcomes[before] as Outcome;
    };
    const expected = await abort(theirs);
    expect(expected.type).toBe("request.aborted");
    expect(await abort(mine)).toEqual(expected);
  });
});
