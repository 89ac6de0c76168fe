import type { Request, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { mlflowDocument } from "./mlflow-documents.js";
import { specPath, type SpecName } from "./revisions.js";
import { cacheValidatorRouteCompilation } from "./route-match-cache.js";

/**
 * Per-request work of express-openapi-validator 5.6 (dist/openapi.validator.js) that gives the same
 * result every time, done once:
 *
 * - `pathParamsMiddleware` waits for the loaded document (a promise turn) and, the first time,
 *   installs the path parameters on the application; afterwards it only calls `next()`. Once it has
 *   passed a request, later requests go straight on.
 * - `metadataMiddleware` finds the request's operation by walking every path of the document
 *   (lookupRoute: the first path whose pattern matches `originalUrl` without its query string, its
 *   operation for the method) after a promise turn, and puts it on `req.openapi`. The walk depends
 *   only on the method and that path (the document and the matching options are fixed once loaded),
 *   so what it found for a path without parameters is remembered by (method, path) and set again
 *   on the next such request: a fresh `req.openapi` with the same operation, and fresh empty
 *   `pathParams`/`req.params`, as the walk makes them. Paths with parameters (ids, artifact paths)
 *   take the validator's own walk every time, so the memo holds at most the documented paths (and
 *   their few spellings: letter case, a trailing slash); it is bounded anyway.
 *
 * Every other step (request validation, its errors) is the validator's own, untouched.
 */

/** What the validator puts on `req.openapi`. */
interface OpenApiMetadata {
  pathParams: Record<string, string>;
  [key: string]: unknown;
}

type WithMetadata = Request & { openapi?: OpenApiMetadata };

/** At most this many (method, path) pairs remembered per document; past it the memo starts again. */
export const MEMO_LIMIT = 1024;

/** The path the validator matches: `originalUrl` without its query string. */
function matchedPath(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** `pathParamsMiddleware`, skipped once it has passed a request. */
function oncePassed(step: RequestHandler): RequestHandler {
  let passed = false;
  return (req, res, next) => {
    if (passed) {
      next();
      return;
    }
    return step(req, res, (err?: unknown) => {
      if (err === undefined) passed = true;
      next(err as Parameters<typeof next>[0]);
    });
  };
}

/** `metadataMiddleware` with its result for paths without parameters remembered (see above). */
function rememberedMetadata(step: RequestHandler): RequestHandler {
  const memo = new Map<string, OpenApiMetadata>();
  return (request, res, next) => {
    const req = request as WithMetadata;
    const key = `${req.method} ${matchedPath(req)}`;
    const known = memo.get(key);
    if (known) {
      const pathParams = {};
      req.openapi = { ...known, pathParams };
      req.params = pathParams;
      next();
      return;
    }
    const before = req.openapi;
    return step(req, res, (err?: unknown) => {
      const found = req.openapi;
      if (err === undefined && found && found !== before && Object.keys(found.pathParams).length === 0) {
        if (memo.size >= MEMO_LIMIT) memo.clear();
        memo.set(key, { ...found });
      }
      next(err as Parameters<typeof next>[0]);
    });
  };
}

/** express-openapi-validator's middlewares for a document (spec/*.yaml, or its relaxed copy for MLflow's paths). */
export function validatorMiddlewares(spec: SpecName, mlflow: boolean): RequestHandler[] {
  cacheValidatorRouteCompilation();
  return OpenApiValidator.middleware({
    // express-openapi-validator's types want its own document type; the relaxed copy is that JSON.
    apiSpec: mlflow ? (mlflowDocument(spec) as unknown as string) : specPath(spec),
    // Query strings are coerced to their schema types; JSON bodies are not (an int64 may be a
    // number or a decimal string, which the schemas say themselves).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    // Answers are checked beside the answer path when asked (tests): http/response-check.ts.
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: true,
    validateApiSpec: true,
  }) as RequestHandler[];
}

/** The validator of a document, for tracker's paths or MLflow's: its middlewares as validatorSteps leaves them. */
export function documentValidator(spec: SpecName, mlflow: boolean): RequestHandler[] {
  return validatorSteps(validatorMiddlewares(spec, mlflow));
}

/**
 * A document's validator middlewares (as `OpenApiValidator.middleware` returns them) without the
 * security step, which only calls `next()` after a promise turn when `validateSecurity` is off (as
 * here), and with the path-parameter and metadata steps' repeated work done once.
 */
export function validatorSteps(steps: readonly RequestHandler[]): RequestHandler[] {
  return steps
    .filter((step) => step.name !== "securityMiddleware")
    .map((step) => {
      if (step.name === "pathParamsMiddleware") return oncePassed(step);
      if (step.name === "metadataMiddleware") return rememberedMetadata(step);
      return step;
    });
}
