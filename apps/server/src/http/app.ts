import express, { type Express, type RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logging/logger.js";
import type { Services } from "../core/services.js";
import { errorHandler, sendError } from "./error-handler.js";
import type { HandlerTable } from "./operation-handler.js";
import { normaliseRequest } from "./request-normalisation.js";
import { cacheValidatorRouteCompilation } from "./route-match-cache.js";
import { searchByGet } from "./get-as-post.js";
import { docsDirectory, revisionOf, SPEC_ORDER, specPath, type SpecName } from "./revisions.js";
import { bearerAuth, rejectNulCharacters, securityHeaders, verifyUtf8 } from "./security.js";

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

function validatorFor(spec: SpecName, validateResponses: boolean): RequestHandler[] {
  cacheValidatorRouteCompilation();
  return OpenApiValidator.middleware({
    apiSpec: specPath(spec),
    // Query strings are coerced to their schema types; JSON bodies are not (an int64 may be a
    // number or a decimal string, which the schemas say themselves).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    ignoreUndocumented: true,
    validateApiSpec: true,
  }) as RequestHandler[];
}

/** Calls the handler of the operation the document's validator matched, if any. */
function dispatch(spec: SpecName, services: Services, handlers: HandlerTable): RequestHandler {
  const revision = revisionOf(spec);
  return async (req, res, next) => {
    const operationId = operationIdOf(req);
    if (!operationId) {
      next();
      return;
    }
    const handler = handlers[operationId];
    if (!handler) {
      sendError(res, "NOT_IMPLEMENTED", `Operation ${operationId} of ${spec === "ext" ? "the extensions" : `revision ${spec.toUpperCase()}`} is not implemented yet`);
      return;
    }
    const input = (req.method === "GET" ? req.query : (req.body ?? {})) as Record<string, unknown>;
    const body = await handler({ revision, input, services, req, res });
    if (body !== undefined) res.status(200).json(body);
  };
}

/** Builds the Express application: logging, aliases, per-revision validation and dispatch, errors. */
export function createApp({ services, logger, handlers }: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  // qs parsing: `k=a&k=b`, `k[]=a` and `k[0]=a` all give arrays.
  app.set("query parser", "extended");
  // The rendered API reference (Redoc pages with inline scripts): its own, looser policy.
  app.use(
    "/docs",
    (_req, res, next) => {
      res.setHeader("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src blob:; font-src 'self' data:");
      res.setHeader("X-Content-Type-Options", "nosniff");
      next();
    },
    express.static(docsDirectory(), { extensions: ["html"] }),
  );
  app.use(securityHeaders());
  app.use(
    pinoHttp({
      logger,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
      // Never write the bearer token (or cookies) to the log.
      redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[redacted]" },
    }),
  );
  app.use(normaliseRequest(services.config.namespace));
  // Before anything reads a body: without the token (when one is configured) only /health answers.
  app.use(bearerAuth(services.config.authToken));

  app.get("/health", async (_req, res) => {
    try {
      await services.knex.raw("select 1");
      res.json({ status: "ok", database: services.databaseKind });
    } catch {
      sendError(res, "TEMPORARILY_UNAVAILABLE", "The database is unavailable");
    }
  });

  // Bodies are JSON whatever the Content-Type says (as MLflow's server does); at most 1 MB.
  app.use(express.json({ limit: "1mb", type: () => true, strict: false, verify: verifyUtf8 }));
  app.use(searchByGet);
  app.use((req, _res, next) => {
    if (req.method !== "GET") {
      // An empty body counts as {}; a parsed body is JSON whatever its Content-Type said.
      if (req.body === undefined || req.body === null) req.body = {};
      req.headers["content-type"] = "application/json";
    }
    next();
  });
  app.use(rejectNulCharacters());

  for (const spec of SPEC_ORDER) {
    app.use(validatorFor(spec, services.config.validateResponses));
    app.use(dispatch(spec, services, handlers));
  }

  app.use((req, res) => {
    sendError(res, "ENDPOINT_NOT_FOUND", `No operation at ${req.method} ${req.path}`);
  });
  app.use(errorHandler);
  return app;
}
