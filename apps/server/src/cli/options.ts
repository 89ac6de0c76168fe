import os from "node:os";
import { InvalidArgumentError } from "commander";
import {
  commaList,
  integerInRange,
  loadConfig,
  parseAuthMode,
  parseDefaultPermission,
  parseEmbeddedDatabase,
  type TrackerConfig,
} from "../config/config.js";

/** Flags of `tracker server` and `tracker db migrate`, as MLflow users know them. */
export interface ServerFlags {
  host?: string;
  port?: number;
  backendStoreUri?: string;
  defaultArtifactRoot?: string;
  namespace?: string;
  workers?: number;
  logFormat?: string;
  embeddedDatabase?: string;
  /** commander's `--no-serve-artifacts` gives serveArtifacts: false. */
  serveArtifacts?: boolean;
  artifactsDestination?: string;
  s3PathStyle?: boolean;
  artifactsOnly?: boolean;
  maxArtifactSize?: number;
  heapGrowthPercent?: number;
  statementTimeout?: number;
  dbAcquireTimeout?: number;
  readinessTimeout?: number;
  allowedHosts?: string;
  corsAllowedOrigins?: string;
  disableSecurityMiddleware?: boolean;
  /** MLflow's `--app-name basic-auth`. */
  appName?: string;
  auth?: string;
  authDefaultPermission?: string;
  authTrustedHeader?: string;
  authTrustedProxies?: string;
  authJwtJwks?: string;
  authJwtAudience?: string;
  authJwtIssuer?: string;
  authJwtClaim?: string;
  /** `--session-lifetime`, in milliseconds. */
  sessionLifetime?: number;
  maxInFlightRequests?: number;
  /** `--body-timeout`, in milliseconds. */
  bodyTimeout?: number;
  /** `--shutdown-delay`, in milliseconds. */
  shutdownDelay?: number;
  /** `--drain-timeout`, in milliseconds. */
  drainTimeout?: number;
  /** `--s3-abandoned-upload-age`, in milliseconds. */
  s3AbandonedUploadAge?: number;
}

export function parseIntegerOption(min: number, max: number) {
  return (value: string): number => {
    const n = integerInRange(value, min, max);
    if (n === undefined) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

/** True for a PostgreSQL URL; anything else given as backend store is a folder for PGlite. */
export const isPostgresUrl = (uri: string): boolean => /^postgres(ql)?:\/\//i.test(uri);

/**
 * The configuration of a command: environment variables (see README) overridden by flags.
 * `--backend-store-uri` takes a postgresql:// URL or a folder for the embedded database.
 */
export function configFromFlags(flags: ServerFlags, env: NodeJS.ProcessEnv = process.env): TrackerConfig {
  const overrides: Partial<TrackerConfig> = {};
  if (flags.host !== undefined) overrides.host = flags.host;
  if (flags.port !== undefined) overrides.port = flags.port;
  if (flags.namespace !== undefined) overrides.namespace = flags.namespace;
  if (flags.defaultArtifactRoot !== undefined) overrides.artifactRoot = flags.defaultArtifactRoot;
  if (flags.logFormat !== undefined) overrides.logFormat = flags.logFormat as TrackerConfig["logFormat"];
  if (flags.embeddedDatabase !== undefined) overrides.embeddedDatabase = parseEmbeddedDatabase(flags.embeddedDatabase);
  // commander sets serveArtifacts to true when the flag is absent; only `--no-serve-artifacts` counts.
  if (flags.serveArtifacts === false) overrides.serveArtifacts = false;
  if (flags.artifactsDestination !== undefined) overrides.artifactsDestination = flags.artifactsDestination;
  if (flags.s3PathStyle) overrides.s3PathStyle = true;
  if (flags.s3AbandonedUploadAge !== undefined) overrides.s3AbandonedUploadAgeMs = flags.s3AbandonedUploadAge;
  if (flags.artifactsOnly) overrides.artifactsOnly = true;
  if (flags.maxArtifactSize !== undefined) overrides.maxArtifactSize = flags.maxArtifactSize;
  if (flags.heapGrowthPercent !== undefined) overrides.heapGrowthPercent = flags.heapGrowthPercent;
  if (flags.statementTimeout !== undefined) overrides.statementTimeoutMs = flags.statementTimeout;
  if (flags.dbAcquireTimeout !== undefined) overrides.dbAcquireTimeoutMs = flags.dbAcquireTimeout;
  if (flags.readinessTimeout !== undefined) overrides.readinessTimeoutMs = flags.readinessTimeout;
  if (flags.allowedHosts !== undefined) overrides.allowedHosts = commaList(flags.allowedHosts);
  if (flags.corsAllowedOrigins !== undefined) overrides.corsAllowedOrigins = commaList(flags.corsAllowedOrigins);
  if (flags.disableSecurityMiddleware) overrides.crossSiteChecks = false;
  if (flags.appName !== undefined) overrides.auth = parseAuthMode(flags.appName);
  if (flags.auth !== undefined) overrides.auth = parseAuthMode(flags.auth);
  if (flags.authDefaultPermission !== undefined)
    overrides.authDefaultPermission = parseDefaultPermission(flags.authDefaultPermission);
  if (flags.sessionLifetime !== undefined) overrides.sessionLifetimeMs = flags.sessionLifetime;
  if (flags.maxInFlightRequests !== undefined) overrides.maxInFlightRequests = flags.maxInFlightRequests;
  if (flags.bodyTimeout !== undefined) overrides.bodyTimeoutMs = flags.bodyTimeout;
  if (flags.shutdownDelay !== undefined) overrides.shutdownDelayMs = flags.shutdownDelay;
  if (flags.drainTimeout !== undefined) overrides.drainTimeoutMs = flags.drainTimeout;
  const env2 = { ...env };
  // Single sign-on flags stand for their environment variables, read and checked together by loadConfig.
  const ssoFlags: Array<[string | undefined, string]> = [
    [flags.authTrustedHeader, "TRACKER_AUTH_TRUSTED_HEADER"],
    [flags.authTrustedProxies, "TRACKER_AUTH_TRUSTED_PROXIES"],
    [flags.authJwtJwks, "TRACKER_AUTH_JWT_JWKS"],
    [flags.authJwtAudience, "TRACKER_AUTH_JWT_AUDIENCE"],
    [flags.authJwtIssuer, "TRACKER_AUTH_JWT_ISSUER"],
    [flags.authJwtClaim, "TRACKER_AUTH_JWT_CLAIM"],
  ];
  for (const [value, name] of ssoFlags) if (value !== undefined) env2[name] = value;
  if (flags.backendStoreUri !== undefined) {
    if (isPostgresUrl(flags.backendStoreUri)) {
      overrides.databaseUrl = flags.backendStoreUri;
    } else {
      // A folder given by flag wins over a DATABASE_URL from the environment.
      delete env2.DATABASE_URL;
      overrides.dataDir = flags.backendStoreUri;
    }
  }
  return loadConfig(env2, overrides);
}

/**
 * Number of server processes: flag, else TRACKER_WORKERS, else one per CPU on PostgreSQL (the
 * server is stateless, the database is shared) and 1 on the embedded database (single-process).
 */
export function workerCount(
  flags: ServerFlags,
  env: NodeJS.ProcessEnv = process.env,
  usesPostgres = false,
  cpus: number = os.availableParallelism(),
): number {
  if (flags.workers !== undefined) return flags.workers;
  const raw = env.TRACKER_WORKERS;
  if (raw === undefined || raw === "") return usesPostgres ? Math.min(64, Math.max(1, cpus)) : 1;
  return parseIntegerOption(1, 64)(raw);
}
