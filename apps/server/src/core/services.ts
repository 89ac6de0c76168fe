import type { Knex } from "knex";
import type { TrackerConfig } from "../config/config.js";
import type { DatabaseKind } from "../db/connect.js";
import { MLFLOW_RUN_VALUE_LIMITS, TRACKER_RUN_VALUE_LIMITS, type RunValueLimits } from "./limits.js";

/** Everything the core needs, built once per process and handed to every handler. */
export interface Services {
  knex: Knex;
  databaseKind: DatabaseKind;
  config: TrackerConfig;
  /** Value limits of run params and tags; revision C's when not set. */
  runValueLimits?: RunValueLimits;
  /**
   * The namespace the request's system tags are written and read in (`mlflow` on MLflow's paths
   * unless `--namespace` fixed one for every path); `config.namespace` when not set.
   */
  tagNamespace?: string;
  /** Set while the server shuts down (see server.ts drain): readiness answers 503 meanwhile. */
  lifecycle?: { readonly draining: boolean };
}

export const runValueLimitsOf = (services: Services): RunValueLimits =>
  services.runValueLimits ?? TRACKER_RUN_VALUE_LIMITS;

export const tagNamespaceOf = (services: Services): string => services.tagNamespace ?? services.config.namespace;

/**
 * The services as requests through MLflow's paths see them: MLflow 2.x's value limits, and system
 * tags under `mlflow.` (unless `--namespace` chose one namespace for every path).
 */
export const mlflowServices = (services: Services): Services => ({
  ...services,
  runValueLimits: MLFLOW_RUN_VALUE_LIMITS,
  tagNamespace: services.config.namespaceByPath ? "mlflow" : services.config.namespace,
});
