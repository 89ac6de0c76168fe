import fs from "node:fs";
import express, { type Express, type RequestHandler } from "express";
import type { Logger } from "../logging/logger.js";
import { mlflowServices, type Services } from "../core/services.js";
import { errorHandler, sendError } from "./error-handler.js";
import type { DispatchedHandler, HandlerTable } from "./operation-handler.js";
import { normaliseRequest } from "./request-normalisation.js";
import { requestLogging } from "./request-logging.js";
import { sendJson } from "./json-response.js";
import { operationRouter } from "./operation-router.js";
import { checkAnswersOf, responseChecks, type ResponseCheck } from "./response-check.js";
import { mlflowDocument, mlflowDocumentDiffers } from "./mlflow-documents.js";
import { originOf } from "./request-origin.js";
import { validatorMiddlewares, validatorSteps } from "./validator-steps.js";
import { searchByGet } from "./get-as-post.js";
import { docsDirectory, revisionOf, SPEC_ORDER, specPath, type SpecName } from "./revisions.js";
import { artifactPathAsOneSegment, artifactServiceGate, isArtifactUpload } from "./artifact-routes.js";
import { crossSiteGuard, jsonBodiesOnly } from "./cross-site.js";
import { rejectNulCharacters, securityHeaders, verifyUtf8 } from "./security.js";
import { authenticate } from "./auth/authenticate.js";
import { auditHandlers } from "./auth/audit.js";
import { auditTrailHandlers } from "./auth/audit-handlers.js";
import { authorizeHandlers } from "./auth/authorize.js";
import { authHandlers } from "./auth/handlers.js";
import { withWebSessions } from "./auth/session.js";
import { webSessionHandlers } from "./auth/session-handlers.js";
import { defaultWebDirectory, webUi } from "./web-ui.js";
import { dropNullFields, rememberRawBody } from "./request-body.js";
import { parseQueryString } from "./query-string.js";
import { compressResponses } from "./compress.js";
import { limitInFlightRequests } from "./in-flight-limit.js";
import { inSeries } from "./in-series.js";
import { jsonBody } from "./json-body.js";
import { requestWork } from "./request-work.js";
import type { ValidationOf } from "./validator-warm-up.js";

export interface AppOptions {
  services: Services;
  logger: Logger;
  handlers: HandlerTable;
}

interface OpenApiRequestInfo {
  schema?: { operationId?: string };
}

function operationIdOf(req: express.Request): string | undefined {
  return (req as express.Request & { openapi?: OpenApiRequestInfo }).openapi?.schema?.operationId;
}

/**
 * Resolves when a validator has loaded its document. express-openapi-validator reads, bundles and
 * checks its document in the background after it is made, in long synchronous steps (seconds of CPU
 * for all documents on a busy machine); its first step waits for that and then, once, installs the
 * path parameters on the app. Driven here with a stand-in request, so that the server listens only
 * when every document is ready, instead of answering /health while its first API requests wait.
 */
function documentLoaded(steps: RequestHandler[], app: Express): Promise<void> {
  const first = steps[0];
  if (first?.name !== "pathParamsMiddleware")
    throw new Error(`express-openapi-validator's first step is ${first?.name}, not pathParamsMiddleware`);
  return new Promise((resolve, reject) => {
    // The stand-in has what that step reads (`app`); a real request then finds the work done.
    const standIn = { app } as Partial<express.Request> as express.Request;
    void first(standIn, {} as express.Response, (err?: unknown) =>
      err === undefined || err === null ? resolve() : reject(err),
    );
  });
}

/**
 * The chain of one document: its validator's steps (http/validator-steps.ts), then dispatch, as one
 * layer (http/in-series.ts: none of them depends on where it is mounted), for tracker's paths and for MLflow's (each document's validator over its relaxed copy);
 * `loading` collects when each validator has loaded its document, `validations` the validator steps
 * of tracker's paths alone (sharing their state with the chain's, for validator-warm-up.ts).
 */
function byOrigin(
  spec: SpecName,
  app: Express,
  loading: Promise<void>[],
  dispatchStep: RequestHandler,
  validations: Map<SpecName, RequestHandler>,
): RequestHandler {
  const chainFor = (mlflowPaths: boolean): RequestHandler => {
    const steps = validatorMiddlewares(spec, mlflowPaths);
    loading.push(documentLoaded(steps, app));
    const validation = validatorSteps(steps);
    if (!mlflowPaths) validations.set(spec, inSeries(validation));
    return inSeries([...validation, dispatchStep]);
  };
  const tracker = chainFor(false);
  // A document with nothing to relax serves MLflow's paths as it is: one validator to load, not two.
  if (!mlflowDocumentDiffers(spec)) return tracker;
  const mlflow = chainFor(true);
  return (req, res, next) => (originOf(res).mlflow ? mlflow : tracker)(req, res, next);
}

const documentsLoaded = new WeakMap<Express, Promise<void>>();

const appValidations = new WeakMap<Express, ValidationOf>();

/** Which document answers a request and each document's validator steps, of an app made by createApp. */
export function appValidation(app: Express): ValidationOf | undefined {
  return appValidations.get(app);
}

/** Resolves when every validator of an app made by createApp has loaded its document; rejects if one cannot. */
export function appReady(app: Express): Promise<void> {
  return documentsLoaded.get(app) ?? Promise.resolve();
}

/** The response checks of each document, for either kind of path, made on first use. */
function documentChecks(): (spec: SpecName, mlflow: boolean) => (operationId: string) => ResponseCheck {
  const made = new Map<string, (operationId: string) => ResponseCheck>();
  return (spec, mlflow) => {
    const key = `${spec}:${mlflow}`;
    let checks = made.get(key);
    if (!checks) {
      const document = mlflow ? mlflowDocument(spec) : JSON.parse(fs.readFileSync(specPath(spec), "utf8"));
      checks = responseChecks(document);
      made.set(key, checks);
    }
    return checks;
  };
}

/** Calls the handler of the operation the document's validator matched, if any. */
function dispatch(
  spec: SpecName,
  services: Services,
  handlers: HandlerTable,
  checks: ReturnType<typeof documentChecks> | undefined,
): RequestHandler {
  const revision = revisionOf(spec);
  return async (req, res, next) => {
    const operationId = operationIdOf(req);
    if (!operationId) {
      next();
      return;
    }
    // The validator has checked the input against this document's operation `operationId`, which
    // is what the handler's type says it gets: the one place where the types meet Express.
    const handler = (handlers as Readonly<Record<string, DispatchedHandler | undefined>>)[operationId];
    if (!handler) {
      sendError(
        res,
        "NOT_IMPLEMENTED",
        `Operation ${operationId} of ${spec === "ext" || spec === "auth" ? `${spec}.yaml` : `revision ${spec.toUpperCase()}`} is not implemented yet`,
      );
      return;
    }
    const input: object = req.method === "GET" ? req.query : (req.body ?? {});
    const mlflow = originOf(res).mlflow;
    if (checks) checkAnswersOf(res, checks(spec, mlflow)(operationId));
    // Counted as part of the request until it settles, even when its client has gone meanwhile
    // (http/request-work.ts): shutdown and the in-flight bound wait for it.
    const body = await requestWork(res, () =>
      handler({
        revision,
        input,
        services: mlflow ? mlflowServices(services) : services,
        req,
        res,
        mlflow,
      }),
    );
    if (body !== undefined) sendJson(res, body);
  };
}

/** Builds the Express application: logging, aliases, per-revision validation and dispatch, errors. */
export function createApp({ services, logger, handlers }: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  // qs parsing: `k=a&k=b`, `k[]=a` and `k[0]=a` all give arrays (up to QUERY_ARRAY_LIMIT values).
  app.set("query parser", parseQueryString);
  // Before anything else: a request a page on another site made a browser send is refused.
  if (services.config.crossSiteChecks) {
    app.use(
      crossSiteGuard({
        listenHost: services.config.host,
        allowedHosts: services.config.allowedHosts,
        allowedOrigins: services.config.corsAllowedOrigins,
      }),
    );
  }
  app.use(compressResponses());
  // The rendered API reference (Redoc pages with inline scripts): its own, looser policy.
  app.use(
    "/docs",
    (_req, res, next) => {
      res.setHeader(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src blob:; font-src 'self' data:",
      );
      res.setHeader("X-Content-Type-Options", "nosniff");
      next();
    },
    express.static(docsDirectory(), { extensions: ["html"] }),
  );
  // The web UI (static files and client-side routes), with its own CSP, before authentication.
  app.use(webUi(services.config.webDir ?? defaultWebDirectory(), services.config.namespace));
  // Bodies are JSON (crossSiteGuard refuses other declared types unless turned off); at most 1 MB. An
  // artifact upload's body is the file: its handler streams it to disk.
  const json = jsonBody({
    limit: 1024 * 1024,
    verify: (req, res, buf, encoding) => {
      verifyUtf8(req, res, buf, encoding);
      rememberRawBody(req, buf);
    },
  });
  const requestSteps: RequestHandler[] = [
    securityHeaders(),
    requestLogging(logger),
    // Before any body is read or any work is queued: beyond the bound, 503 at once.
    limitInFlightRequests(services.config.maxInFlightRequests, logger),
    normaliseRequest(services.config.namespace),
    artifactPathAsOneSegment(),
    // Before anything reads a body: without credentials (when authentication is on) only the health probes answer.
    withWebSessions(services, authenticate(services)),
    artifactServiceGate(services.config),
    ...(services.config.crossSiteChecks ? [jsonBodiesOnly(isArtifactUpload)] : []),
    (req, res, next) => (isArtifactUpload(req) ? next() : json(req, res, next)),
    searchByGet,
    (req, _res, next) => {
      if (isArtifactUpload(req)) {
        req.headers["content-type"] = "application/octet-stream";
      } else if (req.method !== "GET") {
        // An empty body counts as {}; a parsed body is JSON whatever its Content-Type said. A null
        // field is an absent one, as in MLflow (protobuf's JSON mapping).
        if (req.body === undefined || req.body === null) req.body = {};
        else dropNullFields(req.body);
        req.headers["content-type"] = "application/json";
      }
      next();
    },
    rejectNulCharacters(),
  ];
  // Every API request passes all of them: one router layer instead of one each (http/in-series.ts).
  app.use(inSeries(requestSteps));

  // Every operation's permission rule (http/auth/rules.ts) around its handler.
  // Changes to users, permissions and tokens are then recorded (http/auth/audit.ts).
  const guardedHandlers = auditHandlers(
    authorizeHandlers({ ...handlers, ...authHandlers, ...auditTrailHandlers, ...webSessionHandlers }),
  );
  const checks = services.config.validateResponses ? documentChecks() : undefined;
  // Each document's validator and dispatch; a request goes to the one document that documents its
  // (method, path), or through all of them in order when the operation router does not know it.
  const chains = new Map<SpecName, RequestHandler>();
  const everyDocument = express.Router();
  const loading: Promise<void>[] = [];
  const validations = new Map<SpecName, RequestHandler>();
  for (const spec of SPEC_ORDER) {
    const chain = byOrigin(spec, app, loading, dispatch(spec, services, guardedHandlers, checks), validations);
    chains.set(spec, chain);
    everyDocument.use(chain);
  }
  const ready = Promise.all(loading).then(() => undefined);
  // A document that cannot load fails each request it should have validated too; whoever awaits
  // appReady sees the error, and nobody else gets an unhandled rejection.
  ready.catch(() => undefined);
  documentsLoaded.set(app, ready);
  const documentOf = operationRouter();
  appValidations.set(app, { documentOf, steps: (spec) => validations.get(spec) });
  app.use((req, res, next) => {
    // The path the validators match (express-openapi-validator reads originalUrl).
    const url = req.originalUrl;
    const q = url.indexOf("?");
    const spec = documentOf(req.method, q === -1 ? url : url.slice(0, q));
    return ((spec && chains.get(spec)) || everyDocument)(req, res, next);
  });

  app.use((req, res) => {
    sendError(res, "ENDPOINT_NOT_FOUND", `No operation at ${req.method} ${originOf(res).path}`);
  });
  app.use(errorHandler);
  return app;
}
