import type { Response } from "express";

/**
 * Writes a 200 JSON answer in one `res.end` with its Content-Length, without Express's `res.json`
 * and `res.send` (content negotiation of the charset, and an ETag: a SHA-1 of every body, for
 * conditional GETs that API clients do not make; MLflow's server sends none either). With response
 * validation on (tests), `res.json`, which the validator wraps to check the answer.
 */
export function sendJson(res: Response, body: object, viaExpress: boolean): void {
  if (viaExpress) {
    res.status(200).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}
