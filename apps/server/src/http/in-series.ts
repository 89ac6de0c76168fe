import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Middlewares run one after the other as one: what `app.use(a); app.use(b); ...` does for
 * middlewares mounted at `/`, without the router's walk for each of them (matching the path
 * against each layer, its parameters, its prefix, and the bookkeeping around each call: a
 * noticeable share of a small request's CPU with a dozen layers). As in the router, a middleware
 * that throws, or whose promise rejects, passes its error on; `next(err)` skips the rest and
 * hands `err` to the error handlers after this one; the last one's `next()` goes on to the layer
 * after this one. For middlewares of three arguments only (not error handlers), whose behaviour
 * does not depend on where they are mounted.
 */
export function inSeries(handlers: readonly RequestHandler[]): RequestHandler {
  for (const handler of handlers) {
    if (handler.length > 3) throw new Error(`inSeries takes request middlewares, not error handlers (${handler.name})`);
  }
  const count = handlers.length;
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (err?: unknown): void => {
      // As the router: a falsy value is no error, and "route" only leaves a route's handlers.
      if (err && err !== "route") {
        done(err);
        return;
      }
      if (index >= count) {
        done();
        return;
      }
      const handler = handlers[index++] as RequestHandler;
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) {
          result.then(undefined, (error: unknown) => next(error ?? new Error("Rejected promise")));
        }
      } catch (error) {
        next(error);
      }
    };
    next();
  };
}
