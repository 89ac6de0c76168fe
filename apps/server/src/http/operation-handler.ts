import type { Request, Response } from "express";
import type { Revision } from "./revisions.js";
import type { Services } from "../core/services.js";

/** What a handler gets: the revision that matched, its validated input and the core services. */
export interface OperationContext {
  revision: Revision;
  /** Validated request fields: the query string for GET, the JSON body otherwise. */
  input: Record<string, unknown>;
  services: Services;
  req: Request;
  res: Response;
  /**
   * The request came through MLflow's paths (segment `mlflow`): answers carry MLflow 2.x's fields
   * (aliases, run inputs) and `services.limits` are MLflow 2.x's value limits.
   */
  mlflow: boolean;
}

/**
 * A handler returns the JSON response body, or `undefined` when it wrote the response itself
 * (streams). Handlers are thin: parse input, call the core, shape the revision's response.
 */
export type OperationHandler = (ctx: OperationContext) => Promise<object | undefined>;

/** Handlers by operationId, shared by all revisions (each handler branches on `revision`). */
export type HandlerTable = Readonly<Record<string, OperationHandler>>;
