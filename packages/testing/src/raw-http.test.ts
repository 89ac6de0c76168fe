import { describe, expect, it } from "vitest";
import { chunked, parseAnswer } from "./raw-http.js";

const bytes = (...parts: string[]) => Buffer.from(parts.join(""), "latin1");

describe("parseAnswer", () => {
  it("waits for the whole body by Content-Length and decodes it as UTF-8", () => {
    const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n";
    const body = Buffer.from("héllo", "utf8").toString("latin1");
    expect(parseAnswer(bytes(head, body.slice(0, 3)), false)).toBeUndefined();
    expect(parseAnswer(bytes(head, body.slice(0, 3)), true)).toBeUndefined();
    expect(parseAnswer(bytes(head, body, "HTTP/1.1 200 OK\r\n"), false)).toEqual({
      status: 200,
      headers: { "content-type": "text/plain", "content-length": "6" },
      text: "héllo",
    });
  });

  it("skips interim answers and waits for the head", () => {
    expect(parseAnswer(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Cre"), false)).toBeUndefined();
    expect(
      parseAnswer(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}"), false),
    ).toMatchObject({ status: 201, text: "{}" });
  });

  it("decodes a chunked body once its last chunk arrived", () => {
    const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    const body = chunked(Buffer.from("ab"), Buffer.from("cdefghijklmnopqr")).toString("latin1");
    expect(parseAnswer(bytes(head, body.slice(0, -2)), false)).toBeUndefined();
    expect(parseAnswer(bytes(head, body), false)?.text).toBe("abcdefghijklmnopqr");
  });

  it("answers 204 and 304 without a body at once, and a body without length at the end", () => {
    expect(parseAnswer(bytes("HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n"), false)).toMatchObject({
      status: 304,
      text: "",
    });
    const closing = bytes("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nbad");
    expect(parseAnswer(closing, false)).toBeUndefined();
    expect(parseAnswer(closing, true)).toMatchObject({ status: 400, text: "bad" });
  });
});
