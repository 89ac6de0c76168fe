import type { ServerResponse } from "node:http";
import type { Logger } from "../logging/logger.js";
import { answerCompression } from "./compress.js";
import { answerObject, JsonText } from "./json-text.js";
import { answerProblem } from "./response-check.js";

/**
 * The one way a JSON answer is written, success or error, in tests as in production: one `res.end`
 * with its Content-Length, without Express's `res.json` and `res.send` (content negotiation of the
 * charset, and an ETag: a SHA-1 of every body, for conditional GETs that API clients do not make;
 * MLflow's server sends none either). When the answer is checked against the document (tests,
 * http/response-check.ts), a body that does not match is a server bug: logged, and answered as a 500
 * that says so instead. A body given as its JSON text (http/json-text.ts) is written as it is.
 */
export function sendJson(res: ServerResponse, body: object, status = 200): void {
  const problem = answerProblem(res, status, () => answerObject(body));
  if (problem !== undefined) {
    (res.req as { log?: Logger }).log?.error({ problem, status }, "response failed validation against the spec");
    writeJson(res, 500, { error_code: "INTERNAL_ERROR", message: `Response does not match the spec: ${problem}` });
    return;
  }
  writeJson(res, status, body);
}

/** sendJson for a body that is already JSON text (e.g. written by the database), written as it is. */
export function sendJsonText(res: ServerResponse, text: string, status = 200): void {
  sendJson(res, new JsonText(text), status);
}

/**
 * The same answer, never checked: for answers that apply to every operation and that no single
 * operation's document lists (401 and 403 of authentication, see spec/auth.yaml).
 */
export function writeJson(res: ServerResponse, status: number, body: object): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  const length = Buffer.byteLength(text);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", length);
  answerCompression(res, length);
  res.end(text);
}
