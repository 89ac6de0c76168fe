import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { inSeries } from "./in-series.js";

const req = {} as Request;
const res = {} as Response;

/** Runs the series once; resolves with what reached its `next`, and the names of the steps that ran. */
function run(handlers: RequestHandler[]): Promise<{ passed: unknown[]; ran: string[] }> {
  return new Promise((resolve) => {
    const ran: string[] = [];
    const traced = handlers.map(
      (h, i): RequestHandler =>
        (rq, rs, nx) => {
          ran.push(String(i));
          return h(rq, rs, nx);
        },
    );
    inSeries(traced)(req, res, ((...passed: unknown[]) => resolve({ passed, ran })) as NextFunction);
  });
}

const pass: RequestHandler = (_req, _res, next) => next();

describe("inSeries", () => {
  it("runs every step in order, then goes on", async () => {
    expect(await run([pass, pass, pass])).toEqual({ passed: [], ran: ["0", "1", "2"] });
    expect(await run([])).toEqual({ passed: [], ran: [] });
  });

  it("goes on after a step that passes later (a promise turn)", async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(() => next());
    expect(await run([later, pass])).toEqual({ passed: [], ran: ["0", "1"] });
  });

  it("skips the rest on next(err), a throw or a rejected promise", async () => {
    const failure = new Error("no");
    const failing: RequestHandler[] = [
      (_req, _res, next) => next(failure),
      () => {
        throw failure;
      },
      async () => {
        throw failure;
      },
    ];
    for (const step of failing) expect(await run([pass, step, pass])).toEqual({ passed: [failure], ran: ["0", "1"] });
  });

  it("treats falsy values and 'route' as no error, as the router does", async () => {
    const values = [null, false, "", "route"];
    for (const value of values) {
      const step: RequestHandler = (_req, _res, next) => next(value as unknown as Error);
      expect(await run([step, pass])).toEqual({ passed: [], ran: ["0", "1"] });
    }
  });

  it("refuses error handlers", () => {
    const handler = ((_err: unknown, _req: Request, _res: Response, next: NextFunction) =>
      next()) as unknown as RequestHandler;
    expect(() => inSeries([handler])).toThrow(/error handlers/);
  });
});
