import path from "node:path";
import { invalidPermissionMessage, isPermissionName, type PermissionName } from "../domain/permissions.js";
import { parseProxyEntry } from "./trusted-proxies.js";
import { LOG_FORMATS, type LogFormat } from "../logging/logger.js";
import { DEFAULT_HEAP_GROWTH_PERCENT, MAX_HEAP_GROWTH_PERCENT } from "../runtime/heap-growth.js";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_SESSION_LIFETIME_MS,
  SESSION_LIFETIME_RANGE,
  DEFAULT_SHUTDOWN_DELAY_MS,
  DEFAULT_MAX_IN_FLIGHT_REQUESTS,
  MAX_IN_FLIGHT_REQUESTS_LIMIT,
  parseCount,
  parseDurationMs,
} from "./request-limits.js";
import { formatS3Uri, isS3Uri, parseS3Uri } from "./s3-location.js";

/** Runtime configuration of a tracker server process. */
export interface TrackerConfig {
  host: string;
  port: number;
  /** postgres:// URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  /** Folder for the embedded database and the default artifact root. */
  dataDir: string;
  /**
   * Which embedded database serves when there is no databaseUrl (TRACKER_EMBEDDED_DATABASE,
   * --embedded-database): `auto` (PostgreSQL from the npm binaries where they run, keeping an
   * existing PGlite data dir, else PGlite), `postgres` or `pglite`.
   */
  embeddedDatabase: EmbeddedDatabase;
  /**
   * Local folder (or `s3://bucket/prefix`) under which experiments get their default artifact
   * location when artifacts are not proxied (`--default-artifact-root`, a folder, a `file://` or an
   * `s3://` URI), and below which runs with such artifact URIs are served.
   */
  artifactRoot: string;
  /**
   * The artifact root was given as a `file:` or `s3:` URI: experiments' default locations are then
   * URIs too (`file:///root/<id>`, `s3://bucket/prefix/<id>`), as MLflow writes them, instead of plain paths.
   */
  artifactRootIsUri: boolean;
  /** Serve the `mlflow-artifacts` API (on unless `--no-serve-artifacts`). */
  serveArtifacts: boolean;
  /**
   * New experiments get `mlflow-artifacts:/<id>` (true when serving artifacts and no
   * `--default-artifact-root` was given) instead of a folder below artifactRoot.
   */
  proxyArtifacts: boolean;
  /** Local folder or `s3://bucket/prefix` where proxied artifacts live (`--artifacts-destination`). */
  artifactsDestination: string;
  /**
   * Path-style S3 addressing (`endpoint/bucket/key` instead of `bucket.endpoint/key`), which most
   * S3-compatible servers need (`--s3-path-style`, TRACKER_S3_PATH_STYLE).
   */
  s3PathStyle: boolean;
  /**
   * Multipart uploads left unfinished in the server's S3 stores longer than this (ms) are aborted,
   * at start-up and then periodically (`--s3-abandoned-upload-age`, TRACKER_S3_ABANDONED_UPLOAD_AGE;
   * 0: never). See core/artifacts.ts, abortAbandonedMultipartUploads.
   */
  s3AbandonedUploadAgeMs: number;
  /** Serve only the artifact API: tracking and registry answer 503. */
  artifactsOnly: boolean;
  /** Largest artifact upload in bytes (`--max-artifact-size`; 10 GiB by default). */
  maxArtifactSize: number;
  /**
   * System-tag prefix on tracker's paths (`tracker` by default); with `--namespace` (or
   * TRACKER_NAMESPACE) the one prefix on every path, MLflow's included.
   */
  namespace: string;
  /**
   * No namespace was chosen: the system-tag prefix follows the path of each request (`mlflow.` on
   * MLflow's paths, `tracker.` on tracker's). See core/system-tags.ts.
   */
  namespaceByPath: boolean;
  logLevel: string;
  /** `auto` (human lines on a terminal, JSON otherwise), `json` or `pretty` (TRACKER_LOG_FORMAT, --log-format). */
  logFormat: LogFormat;
  /** Validate responses against the spec too (tests turn this on). */
  validateResponses: boolean;
  /**
   * Build the request validators of the web UI's first requests in the background after start-up
   * (http/validator-warm-up.ts); on by default, off with TRACKER_WARM_UP=0 (the test servers turn it
   * off: they are not visited by a browser first).
   */
  warmUp: boolean;
  /**
   * TRACKER_AUTH_TOKEN: when set, every request except /health must carry
   * `Authorization: Bearer <token>` (see src/http/security.ts).
   */
  authToken?: string;
  /**
   * Host names the server answers to besides IP addresses, `localhost`, the machine's name and the
   * listen address (TRACKER_ALLOWED_HOSTS, --allowed-hosts; comma-separated, `*` wildcards).
   */
  allowedHosts: string[];
  /**
   * Origins allowed to write besides the server's own (TRACKER_CORS_ALLOWED_ORIGINS,
   * --cors-allowed-origins; comma-separated, `*` wildcards).
   */
  corsAllowedOrigins: string[];
  /**
   * The Host, Origin and Content-Type checks against cross-site requests (src/http/cross-site.ts);
   * off with TRACKER_DISABLE_SECURITY_MIDDLEWARE=1 or --disable-security-middleware.
   */
  crossSiteChecks: boolean;
  /**
   * Users and permissions (TRACKER_AUTH=users, or `--app-name basic-auth` as MLflow names it):
   * `none` (the default) or `users` (HTTP Basic and Bearer tokens, MLflow's permission model; see
   * src/http/auth/).
   */
  auth: AuthMode;
  /** Permission of a user on what no permission names them for (TRACKER_AUTH_DEFAULT_PERMISSION; READ). */
  authDefaultPermission: PermissionName;
  /**
   * Single sign-on by a reverse proxy: the header naming the signed-in user (TRACKER_AUTH_TRUSTED_HEADER,
   * --auth-trusted-header; e.g. X-Forwarded-User), believed only from authTrustedProxies.
   */
  authTrustedHeader?: string;
  /** Addresses and CIDR ranges of the trusted proxies (TRACKER_AUTH_TRUSTED_PROXIES, --auth-trusted-proxies). */
  authTrustedProxies: string[];
  /** Single sign-on by an identity provider's Bearer JWTs (TRACKER_AUTH_JWT_*, --auth-jwt-*). */
  authJwt?: JwtSettings;
  /** How long a web UI sign-in lasts, in ms (TRACKER_SESSION_LIFETIME, --session-lifetime; 7 days). */
  sessionLifetimeMs: number;
  /** First admin, created at start when missing (TRACKER_AUTH_ADMIN_USERNAME / TRACKER_AUTH_ADMIN_PASSWORD). */
  authAdmin?: { username: string; password: string };
  /** TRACKER_WEB_DIR: folder of the built web UI served at `/` (default: apps/web/dist). */
  webDir?: string;
  /**
   * How far V8 may grow the heap after a full collection, in percent of what survived it
   * (TRACKER_HEAP_GROWTH_PERCENT, --heap-growth-percent; 0 leaves V8's own policy): see
   * runtime/heap-growth.ts.
   */
  heapGrowthPercent: number;
  /**
   * Longest a database statement may run, in ms, as PostgreSQL's statement_timeout on every
   * connection (TRACKER_STATEMENT_TIMEOUT, --statement-timeout; 0: no limit). A statement that
   * waits for a lock counts its waiting. Migrations run without it. Not on PGlite.
   */
  statementTimeoutMs: number;
  /** Longest a request waits for a free database connection, in ms (TRACKER_DB_ACQUIRE_TIMEOUT, --db-acquire-timeout). */
  dbAcquireTimeoutMs: number;
  /** Longest /health/ready and /health wait for the database, in ms (TRACKER_READINESS_TIMEOUT, --readiness-timeout). */
  readinessTimeoutMs: number;
  /** Requests one process works on at once; beyond, 503 with Retry-After (0: no bound). See http/in-flight-limit.ts. */
  maxInFlightRequests: number;
  /** Milliseconds a request body may receive nothing before its connection is closed (0: never). See http/body-timeout.ts. */
  bodyTimeoutMs: number;
  /** After SIGTERM, ms of serving with readiness 503 before the server stops accepting (0: none). See http/connections.ts. */
  shutdownDelayMs: number;
  /** After it stops accepting, ms the server waits for requests in flight (0: no bound). See http/connections.ts. */
  drainTimeoutMs: number;
}

/**
 * 30 s: the heaviest statements (a 1,000-run search over 100k runs, a 100k-point metric history)
 * take well under a second; a statement still running after 30 s waits for a lock or a stuck
 * database, and its client is better served by a 503 it can retry.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * 24 h: an upload through the server finishes or is aborted while its request lasts, and MLflow's
 * presigned part URLs live an hour; a multipart upload a day old was abandoned (a crash, a client
 * that gave up).
 */
export const DEFAULT_S3_ABANDONED_UPLOAD_AGE_MS = 24 * 3600 * 1000;
/** 10 s: knex's default, longer than any normal queue for a connection under load. */
export const DEFAULT_DB_ACQUIRE_TIMEOUT_MS = 10_000;
/** 2 s: a readiness probe must answer before the prober's own timeout (Kubernetes: 1 s by default, often raised). */
export const DEFAULT_READINESS_TIMEOUT_MS = 2_000;
export const AUTH_MODES = ["none", "users"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** TRACKER_AUTH / `--auth`: `none` or `users`; MLflow's app name `basic-auth` means `users`. */
export function parseAuthMode(raw: string | undefined): AuthMode {
  if (raw === undefined || raw === "") return "none";
  const value = raw.trim().toLowerCase();
  if (value === "basic-auth" || value === "users") return "users";
  if (value === "none") return "none";
  throw new ConfigError(`auth must be one of none, users (or MLflow's basic-auth), got "${raw}"`);
}

export function parseDefaultPermission(raw: string | undefined): PermissionName {
  if (raw === undefined || raw === "") return "READ";
  const value = raw.trim().toUpperCase();
  if (!isPermissionName(value)) throw new ConfigError(`default permission: ${invalidPermissionMessage(raw)}`);
  return value;
}

function adminFromEnv(env: NodeJS.ProcessEnv): { username: string; password: string } | undefined {
  const username = env.TRACKER_AUTH_ADMIN_USERNAME?.trim();
  const password = env.TRACKER_AUTH_ADMIN_PASSWORD;
  if (!username && !password) return undefined;
  if (!username || !password)
    throw new ConfigError(
      "TRACKER_AUTH_ADMIN_USERNAME and TRACKER_AUTH_ADMIN_PASSWORD go together: set both or neither",
    );
  return { username, password };
}

/** How Bearer JWTs of an identity provider are checked (see core/auth/jwt.ts). */
export interface JwtSettings {
  /** HS256 shared secret (TRACKER_AUTH_JWT_SECRET; at least 32 bytes). */
  secret?: string;
  /** The provider's keys, a JWKS: an http(s) URL or a local file (TRACKER_AUTH_JWT_JWKS, --auth-jwt-jwks). */
  jwks?: string;
  /** The audience (`aud`) tokens must name (TRACKER_AUTH_JWT_AUDIENCE, --auth-jwt-audience; required). */
  audience: string;
  /** The issuer (`iss`) tokens must name, when set (TRACKER_AUTH_JWT_ISSUER, --auth-jwt-issuer). */
  issuer?: string;
  /** The claim naming the user (TRACKER_AUTH_JWT_CLAIM, --auth-jwt-claim; default `sub`). */
  claim: string;
}

/** JWT settings from TRACKER_AUTH_JWT_*: undefined when neither a secret nor a JWKS is given. */
export function jwtFromEnv(env: NodeJS.ProcessEnv): JwtSettings | undefined {
  const secret = env.TRACKER_AUTH_JWT_SECRET || undefined;
  const jwks = env.TRACKER_AUTH_JWT_JWKS?.trim() || undefined;
  const audience = env.TRACKER_AUTH_JWT_AUDIENCE?.trim() || undefined;
  const issuer = env.TRACKER_AUTH_JWT_ISSUER?.trim() || undefined;
  const claim = env.TRACKER_AUTH_JWT_CLAIM?.trim() || "sub";
  if (secret === undefined && jwks === undefined) {
    if (audience !== undefined || issuer !== undefined || env.TRACKER_AUTH_JWT_CLAIM)
      throw new ConfigError(
        "JWT settings need a key: TRACKER_AUTH_JWT_SECRET (HS256) or TRACKER_AUTH_JWT_JWKS (--auth-jwt-jwks)",
      );
    return undefined;
  }
  if (secret !== undefined && jwks !== undefined)
    throw new ConfigError("TRACKER_AUTH_JWT_SECRET and TRACKER_AUTH_JWT_JWKS exclude each other: give one");
  if (secret !== undefined && Buffer.byteLength(secret, "utf8") < 32)
    throw new ConfigError("TRACKER_AUTH_JWT_SECRET must be at least 32 bytes (HS256 keys of 256 bits)");
  if (audience === undefined)
    throw new ConfigError("JWTs need the audience they must name: TRACKER_AUTH_JWT_AUDIENCE (--auth-jwt-audience)");
  return { ...(secret ? { secret } : { jwks }), audience, ...(issuer ? { issuer } : {}), claim };
}

/** Proxy addresses and ranges, each checked (see config/trusted-proxies.ts). */
function trustedProxiesFrom(raw: string | undefined): string[] {
  const entries = commaList(raw);
  return setting(raw, entries, () => {
    for (const entry of entries) parseProxyEntry(entry);
    return entries;
  });
}

/** Single sign-on needs users, and a trusted header needs the proxies to trust. */
function checkSignOn(config: TrackerConfig): TrackerConfig {
  const sso = config.authTrustedHeader !== undefined || config.authJwt !== undefined;
  if (sso && config.auth !== "users")
    throw new ConfigError("single sign-on (a trusted header or JWTs) needs users and permissions: add --auth users");
  if (config.authTrustedHeader !== undefined && config.authTrustedProxies.length === 0)
    throw new ConfigError(
      "--auth-trusted-header needs the addresses of the proxies that set it: --auth-trusted-proxies (TRACKER_AUTH_TRUSTED_PROXIES)",
    );
  if (config.authTrustedHeader !== undefined && !/^[A-Za-z0-9-]+$/.test(config.authTrustedHeader))
    throw new ConfigError(
      `--auth-trusted-header must be a header name such as X-Forwarded-User, got "${config.authTrustedHeader}"`,
    );
  return config;
}

export const EMBEDDED_DATABASES = ["auto", "postgres", "pglite"] as const;
export type EmbeddedDatabase = (typeof EMBEDDED_DATABASES)[number];

export class ConfigError extends Error {}

export function parseEmbeddedDatabase(raw: string | undefined): EmbeddedDatabase {
  if (raw === undefined || raw === "") return "auto";
  if (!(EMBEDDED_DATABASES as readonly string[]).includes(raw))
    throw new ConfigError(`embedded database must be one of ${EMBEDDED_DATABASES.join(", ")}, got "${raw}"`);
  return raw as EmbeddedDatabase;
}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

/** `raw` as an integer from `min` to `max` written in decimal digits only, or undefined when it is not one. */
export function integerInRange(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** TRACKER_HEAP_GROWTH_PERCENT: an integer from 0 (V8's own policy) to MAX_HEAP_GROWTH_PERCENT. */
export function parseHeapGrowthPercent(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_HEAP_GROWTH_PERCENT;
  const n = integerInRange(raw, 0, MAX_HEAP_GROWTH_PERCENT);
  if (n === undefined)
    throw new ConfigError(`heap growth percent must be an integer from 0 to ${MAX_HEAP_GROWTH_PERCENT}, got "${raw}"`);
  return n;
}

function parseLogFormat(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === "") return "auto";
  if (!(LOG_FORMATS as readonly string[]).includes(raw))
    throw new ConfigError(`log format must be one of ${LOG_FORMATS.join(", ")}, got "${raw}"`);
  return raw as LogFormat;
}

export const DEFAULT_MAX_ARTIFACT_SIZE = 10 * 1024 ** 3;

/**
 * A local folder given as a path or a `file://` URI (`file:///x`, `file:/x`, `file:x`), made
 * absolute. `file://host/x` names another machine and is refused.
 */
export function localFolder(value: string, what: string): string {
  if (/^file:/i.test(value)) {
    if (/^file:\/\//i.test(value)) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new ConfigError(`${what} is not a valid file:// URI: "${value}"`);
      }
      if (url.hostname !== "" && url.hostname !== "localhost")
        throw new ConfigError(`${what} names another host: "${value}"`);
      return path.resolve(decodeURIComponent(url.pathname));
    }
    return path.resolve(value.slice("file:".length));
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    throw new ConfigError(`${what} must be a local folder or a file:// URI, got "${value}"`);
  return path.resolve(value);
}

/** An artifact location: a local folder (see localFolder) or an `s3://bucket[/prefix]` URI, normalised. */
export function artifactLocation(value: string, what: string): string {
  if (!isS3Uri(value)) return localFolder(value, what);
  const parsed = parseS3Uri(value);
  if (!parsed) throw new ConfigError(`${what} is not a valid s3://bucket/prefix URI: "${value}"`);
  return formatS3Uri(parsed);
}

/** `10737418240`, `512MB`, `10GiB`, `1.5G`: a byte count. */
export function parseByteSize(raw: string, what = "size"): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$/i.exec(raw);
  if (!match) throw new ConfigError(`${what} must be a byte count such as 10737418240, 512MB or 10GiB, got "${raw}"`);
  const unit = match[2]!.toLowerCase();
  const base = match[3]!.toLowerCase().startsWith("i") || unit === "" ? 1024 : 1000;
  const power = " kmgt".indexOf(unit === "" ? " " : unit);
  const bytes = Math.floor(Number(match[1]) * base ** power);
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new ConfigError(`${what} must be at least 1 byte, got "${raw}"`);
  return bytes;
}

/** `30s`, `500ms`, `2m`, `1.5s`, or a number of milliseconds (as PostgreSQL reads a bare timeout), from `min` ms to 24 h. */
export function parseDuration(raw: string, what: string, min = 1): number {
  try {
    return parseDurationMs(raw, what, { bareUnitMs: 1, minMs: min });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

const durationFrom = (raw: string | undefined, what: string, fallback: number, min = 1): number =>
  raw === undefined || raw === "" ? fallback : parseDuration(raw, what, min);
/** A comma-separated list (`a, b,c`) without empty items. */
export const commaList = (raw: string | undefined): string[] =>
  (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** A setting read by `parse`, whose RangeError becomes a ConfigError. */
function setting<T>(raw: string | undefined, fallback: T, parse: (raw: string) => T): T {
  if (raw === undefined || raw === "") return fallback;
  try {
    return parse(raw);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

const flag = (raw: string | undefined): boolean | undefined =>
  raw === undefined || raw === "" ? undefined : !/^(0|false|no|off)$/i.test(raw);

/** Reads the configuration from environment variables (see README: Configuration). */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<TrackerConfig> = {},
): TrackerConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.TRACKER_DATA_DIR ?? "./.tracker");
  const chosenNamespace = overrides.namespace ?? (env.TRACKER_NAMESPACE || undefined);
  const namespace = chosenNamespace ?? "tracker";
  if (!/^[a-z][a-z0-9_-]{0,30}$/.test(namespace)) {
    throw new ConfigError(`namespace must match ^[a-z][a-z0-9_-]{0,30}$, got "${namespace}"`);
  }
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined);
  const explicitRoot = overrides.artifactRoot ?? (env.TRACKER_ARTIFACT_ROOT || undefined);
  const serveArtifacts = overrides.serveArtifacts ?? flag(env.TRACKER_SERVE_ARTIFACTS) ?? true;
  return checkSignOn({
    host: overrides.host ?? env.HOST ?? "127.0.0.1",
    port: overrides.port ?? parsePort(env.PORT, 5000),
    databaseUrl,
    dataDir,
    embeddedDatabase: overrides.embeddedDatabase ?? parseEmbeddedDatabase(env.TRACKER_EMBEDDED_DATABASE),
    artifactRoot:
      explicitRoot === undefined
        ? path.join(dataDir, "artifacts")
        : artifactLocation(explicitRoot, "the default artifact root"),
    artifactRootIsUri: explicitRoot !== undefined && /^(file|s3):/i.test(explicitRoot),
    serveArtifacts,
    proxyArtifacts: overrides.proxyArtifacts ?? (serveArtifacts && explicitRoot === undefined),
    artifactsDestination: artifactLocation(
      overrides.artifactsDestination ?? (env.TRACKER_ARTIFACTS_DESTINATION || path.join(dataDir, "artifacts")),
      "the artifacts destination",
    ),
    s3PathStyle: overrides.s3PathStyle ?? flag(env.TRACKER_S3_PATH_STYLE) ?? false,
    s3AbandonedUploadAgeMs:
      overrides.s3AbandonedUploadAgeMs ??
      setting(env.TRACKER_S3_ABANDONED_UPLOAD_AGE, DEFAULT_S3_ABANDONED_UPLOAD_AGE_MS, (raw) =>
        parseDurationMs(raw, "TRACKER_S3_ABANDONED_UPLOAD_AGE"),
      ),
    artifactsOnly: overrides.artifactsOnly ?? flag(env.TRACKER_ARTIFACTS_ONLY) ?? false,
    maxArtifactSize:
      overrides.maxArtifactSize ??
      (env.TRACKER_MAX_ARTIFACT_SIZE
        ? parseByteSize(env.TRACKER_MAX_ARTIFACT_SIZE, "TRACKER_MAX_ARTIFACT_SIZE")
        : DEFAULT_MAX_ARTIFACT_SIZE),
    namespace,
    namespaceByPath: overrides.namespaceByPath ?? chosenNamespace === undefined,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? "info",
    logFormat: parseLogFormat(overrides.logFormat ?? env.TRACKER_LOG_FORMAT),
    validateResponses: overrides.validateResponses ?? env.TRACKER_VALIDATE_RESPONSES === "1",
    warmUp: overrides.warmUp ?? env.TRACKER_WARM_UP !== "0",
    authToken: overrides.authToken ?? (env.TRACKER_AUTH_TOKEN?.trim() || undefined),
    allowedHosts: overrides.allowedHosts ?? commaList(env.TRACKER_ALLOWED_HOSTS),
    corsAllowedOrigins: overrides.corsAllowedOrigins ?? commaList(env.TRACKER_CORS_ALLOWED_ORIGINS),
    crossSiteChecks: overrides.crossSiteChecks ?? !(flag(env.TRACKER_DISABLE_SECURITY_MIDDLEWARE) ?? false),
    auth: overrides.auth ?? parseAuthMode(env.TRACKER_AUTH),
    authDefaultPermission:
      overrides.authDefaultPermission ?? parseDefaultPermission(env.TRACKER_AUTH_DEFAULT_PERMISSION),
    authAdmin: overrides.authAdmin ?? adminFromEnv(env),
    sessionLifetimeMs:
      overrides.sessionLifetimeMs ??
      setting(env.TRACKER_SESSION_LIFETIME, DEFAULT_SESSION_LIFETIME_MS, (raw) =>
        parseDurationMs(raw, "TRACKER_SESSION_LIFETIME", SESSION_LIFETIME_RANGE),
      ),
    authTrustedHeader: overrides.authTrustedHeader ?? (env.TRACKER_AUTH_TRUSTED_HEADER?.trim() || undefined),
    authTrustedProxies: overrides.authTrustedProxies ?? trustedProxiesFrom(env.TRACKER_AUTH_TRUSTED_PROXIES),
    authJwt: "authJwt" in overrides ? overrides.authJwt : jwtFromEnv(env),
    webDir: overrides.webDir ?? (env.TRACKER_WEB_DIR ? path.resolve(env.TRACKER_WEB_DIR) : undefined),
    heapGrowthPercent: overrides.heapGrowthPercent ?? parseHeapGrowthPercent(env.TRACKER_HEAP_GROWTH_PERCENT),
    statementTimeoutMs:
      overrides.statementTimeoutMs ??
      durationFrom(env.TRACKER_STATEMENT_TIMEOUT, "TRACKER_STATEMENT_TIMEOUT", DEFAULT_STATEMENT_TIMEOUT_MS, 0),
    dbAcquireTimeoutMs:
      overrides.dbAcquireTimeoutMs ??
      durationFrom(env.TRACKER_DB_ACQUIRE_TIMEOUT, "TRACKER_DB_ACQUIRE_TIMEOUT", DEFAULT_DB_ACQUIRE_TIMEOUT_MS),
    readinessTimeoutMs:
      overrides.readinessTimeoutMs ??
      durationFrom(env.TRACKER_READINESS_TIMEOUT, "TRACKER_READINESS_TIMEOUT", DEFAULT_READINESS_TIMEOUT_MS),
    maxInFlightRequests:
      overrides.maxInFlightRequests ??
      setting(env.TRACKER_MAX_IN_FLIGHT_REQUESTS, DEFAULT_MAX_IN_FLIGHT_REQUESTS, (raw) =>
        parseCount(raw, "TRACKER_MAX_IN_FLIGHT_REQUESTS", MAX_IN_FLIGHT_REQUESTS_LIMIT),
      ),
    bodyTimeoutMs:
      overrides.bodyTimeoutMs ??
      setting(env.TRACKER_BODY_TIMEOUT, DEFAULT_BODY_TIMEOUT_MS, (raw) => parseDurationMs(raw, "TRACKER_BODY_TIMEOUT")),
    shutdownDelayMs:
      overrides.shutdownDelayMs ??
      setting(env.TRACKER_SHUTDOWN_DELAY, DEFAULT_SHUTDOWN_DELAY_MS, (raw) =>
        parseDurationMs(raw, "TRACKER_SHUTDOWN_DELAY"),
      ),
    drainTimeoutMs:
      overrides.drainTimeoutMs ??
      setting(env.TRACKER_DRAIN_TIMEOUT, DEFAULT_DRAIN_TIMEOUT_MS, (raw) =>
        parseDurationMs(raw, "TRACKER_DRAIN_TIMEOUT"),
      ),
  });
}
