import fs from "node:fs";
import { createRequire } from "node:module";
import type { Request, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { mlflowDocument } from "./mlflow-documents.js";
import { specPath, type SpecName } from "./revisions.js";
import { cacheValidatorRouteCompilation } from "./route-match-cache.js";
import { shareApiDocumentCheck } from "./api-document-check.js";
import { lookUpSchemaRefsWithoutCompiling } from "./schema-ref-lookup.js";

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
 * - `requestMiddleware` waits for the loaded document (a promise turn), builds the request validator
 *   the first time, and then calls it, turning what it throws into `next(err)`. Once built, it is
 *   called directly, its throws turned into `next(err)` the same way.
 * - The request validator (RequestValidator.validate) then, on every request, parses the
 *   Content-Type, builds a RequestParameterMutator that `url.parse`s the URL and walks the
 *   operation's parameters, redefines `req.query` twice, and runs two Ajv validators: of the
 *   parameters (query, headers, path) and of the body. For a JSON body sent without a query string
 *   to an operation without parameters (every write), the mutator changes nothing and the parameter
 *   validator has nothing to check: there the same two compiled Ajv validators (the validator's own,
 *   from its Ajv instances, once it has built them for that operation) are called directly on the
 *   same data, and a request they accept goes on; one they refuse goes through the validator's own
 *   step, which refuses it with its own error (see fastValidation).
 *
 * The request validation itself (its checks, its errors) is the validator's own.
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

/** What is used of express-openapi-validator's compiled Ajv validators (Ajv's ValidateFunction). */
interface CompiledValidator {
  (data: unknown): boolean;
  schema?: unknown;
}

/** What is used of express-openapi-validator's RequestValidator (dist/middlewares/openapi.request.validator.js). */
interface RequestValidatorInstance {
  validate: RequestHandler;
  middlewareCache: Record<string, unknown>;
  ajv: { getSchema(key: string): CompiledValidator | undefined };
  ajvBody: { getSchema(key: string): CompiledValidator | undefined };
}

/** The request validator a `requestMiddleware` step built (see captureRequestValidation), once it has. */
interface BuiltValidation {
  direct?: RequestHandler;
  /** The validator behind `direct`, when it could be made here as the step makes it. */
  validator?: RequestValidatorInstance;
}

const requestValidations = new WeakMap<RequestHandler, BuiltValidation>();

/** What validatorMiddlewares reaches of express-openapi-validator's instance behind its middlewares. */
interface ValidatorInstance {
  requestValidationMiddleware?: (apiDoc: unknown) => RequestHandler;
  ajvOpts?: { request?: unknown };
}

type RequestValidatorClass = new (apiDoc: unknown, options: unknown) => RequestValidatorInstance;

/** express-openapi-validator's RequestValidator class, if it is where version 5.6 keeps it. */
function requestValidatorClass(): RequestValidatorClass | undefined {
  try {
    const mod = createRequire(import.meta.url)(
      "express-openapi-validator/dist/middlewares/openapi.request.validator.js",
    ) as {
      RequestValidator?: unknown;
    };
    return typeof mod.RequestValidator === "function" ? (mod.RequestValidator as RequestValidatorClass) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remembers the request validator that `steps`' request step builds on its first request:
 * `OpenApiValidator.middleware` leaves its instance on itself (`_oav`), whose
 * `requestValidationMiddleware(apiDoc)` builds it. When either is missing (another version), the
 * step stays as it is.
 */
function captureRequestValidation(steps: readonly RequestHandler[]): void {
  const instance = (OpenApiValidator.middleware as unknown as { _oav?: ValidatorInstance })._oav;
  const step = steps.find((s) => s.name === "requestMiddleware");
  const build = instance?.requestValidationMiddleware;
  if (!instance || !step || typeof build !== "function") return;
  const built: BuiltValidation = {};
  const RequestValidator = requestValidatorClass();
  instance.requestValidationMiddleware = function (this: ValidatorInstance, apiDoc: unknown): RequestHandler {
    const options = this.ajvOpts?.request;
    if (!RequestValidator || options === undefined) {
      const validation = build.call(this, apiDoc);
      built.direct = validation;
      return validation;
    }
    // As the validator's own requestValidationMiddleware makes it, keeping the instance.
    const validator = new RequestValidator(apiDoc, options);
    const validation: RequestHandler = (req, res, next) => validator.validate(req, res, next);
    built.validator = validator;
    built.direct = validation;
    return validation;
  };
  requestValidations.set(step, built);
}

/** The content type the request normalisation gives every JSON body (app.ts). */
const JSON_TYPE = "application/json";

/** What the validator leaves on `req.openapi` that fastValidation reads. */
interface OperationMetadata {
  expressRoute?: string;
  schema?: { parameters?: unknown[] };
  pathParams?: Record<string, string>;
}

/** The two compiled validators of an operation that fastValidation may call, or null where it may not. */
type FastValidators = { general: CompiledValidator; body: CompiledValidator } | null;

/**
 * The validator's own request step without its per-request set-up, where that set-up changes
 * nothing: a request with a JSON body (Content-Type exactly `application/json`), no query string,
 * and an operation without parameters, once the validator has built its middleware for that
 * (method, route, content type). It calls the validator's two compiled Ajv validators (found under
 * the key the validator files them under) on the data the validator would give them; undefined
 * when the request is not such a request (the validator's own step then runs). A request they
 * refuse is handed to the validator's own step, which refuses it with its own error.
 */
function fastValidation(validator: RequestValidatorInstance): (req: Request) => boolean | undefined {
  const known = new Map<string, FastValidators>();
  const lookUp = (key: string): FastValidators | undefined => {
    if (known.has(key)) return known.get(key);
    // Not built yet for this operation: the validator's own step builds it.
    if (!validator.middlewareCache[key]) return undefined;
    const general = validator.ajv.getSchema(key);
    const body = validator.ajvBody.getSchema(key);
    const bodySchema = body?.schema as { properties?: { body?: { _discriminator?: unknown } } } | undefined;
    const found =
      general && body && bodySchema?.properties?.body?._discriminator === undefined ? { general, body } : null;
    if (known.size >= MEMO_LIMIT) known.clear();
    known.set(key, found);
    return found;
  };
  return (request) => {
    const req = request as Request & { openapi?: OperationMetadata; cookies?: object; signedCookies?: object };
    const openapi = req.openapi;
    if (!openapi || req.method === "GET" || req.headers["content-type"] !== JSON_TYPE) return undefined;
    if (req.originalUrl.includes("?") || openapi.schema?.parameters?.length) return undefined;
    if (!openapi.pathParams || Object.keys(openapi.pathParams).length > 0) return undefined;
    const validators = lookUp(`${req.method}-${openapi.expressRoute}-${JSON_TYPE}`);
    if (!validators) return undefined;
    const data = {
      query: req.query ?? {},
      headers: req.headers,
      params: req.params,
      cookies: req.cookies ? { ...req.cookies, ...req.signedCookies } : undefined,
      body: req.body as unknown,
    };
    return validators.general(data) && validators.body(data);
  };
}

/** `requestMiddleware`, calling the request validator directly once the step has built it. */
function directOnceBuilt(step: RequestHandler, built: BuiltValidation): RequestHandler {
  let fast: ((req: Request) => boolean | undefined) | undefined;
  return (req, res, next) => {
    const direct = built.direct;
    if (!direct) return step(req, res, next);
    try {
      if (built.validator) {
        fast ??= fastValidation(built.validator);
        if (fast(req) === true) {
          next();
          return;
        }
      }
      direct(req, res, next);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * Whether express-openapi-validator's file-upload step can ever act on a request to `document`: it
 * hands a request to multer only for an operation whose request body is `multipart/form-data`, or
 * has a media type with a `format: binary` schema. In a document that names neither anywhere, the
 * step only calls `next()`, after two promise turns, on every request; it is then left out.
 */
export function mayReceiveFiles(document: unknown): boolean {
  let found = false;
  JSON.stringify(document, (key, value: unknown) => {
    if (key === "multipart/form-data" || (key === "format" && value === "binary")) found = true;
    return found ? undefined : value;
  });
  return found;
}

/** express-openapi-validator's middlewares for a document (spec/*.yaml, or its relaxed copy for MLflow's paths). */
export function validatorMiddlewares(spec: SpecName, mlflow: boolean): RequestHandler[] {
  cacheValidatorRouteCompilation();
  shareApiDocumentCheck();
  lookUpSchemaRefsWithoutCompiling();
  const document: unknown = mlflow ? mlflowDocument(spec) : JSON.parse(fs.readFileSync(specPath(spec), "utf8"));
  const steps = OpenApiValidator.middleware({
    // express-openapi-validator's types want its own document type; the relaxed copy is that JSON.
    apiSpec: mlflow ? (document as string) : specPath(spec),
    ...(mayReceiveFiles(document) ? {} : { fileUploader: false }),
    // Query strings are coerced to their schema types; JSON bodies are not (an int64 may be a
    // number or a decimal string, which the schemas say themselves).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    // Answers are checked beside the answer path when asked (tests): http/response-check.ts.
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: true,
    validateApiSpec: true,
  }) as RequestHandler[];
  captureRequestValidation(steps);
  return steps;
}

/** The validator of a document, for tracker's paths or MLflow's: its middlewares as validatorSteps leaves them. */
export function documentValidator(spec: SpecName, mlflow: boolean): RequestHandler[] {
  return validatorSteps(validatorMiddlewares(spec, mlflow));
}

/**
 * A document's validator middlewares (as `OpenApiValidator.middleware` returns them) without the
 * security step, which only calls `next()` after a promise turn when `validateSecurity` is off (as
 * here), and with the path-parameter, metadata and request steps' repeated work done once.
 */
export function validatorSteps(steps: readonly RequestHandler[]): RequestHandler[] {
  return steps
    .filter((step) => step.name !== "securityMiddleware")
    .map((step) => {
      if (step.name === "pathParamsMiddleware") return oncePassed(step);
      if (step.name === "metadataMiddleware") return rememberedMetadata(step);
      const built = requestValidations.get(step);
      if (built) return directOnceBuilt(step, built);
      return step;
    });
}
