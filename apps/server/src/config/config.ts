import path from "node:path";
import { LOG_FORMATS, type LogFormat } from "../logging/logger.js";
import { DEFAULT_HEAP_GROWTH_PERCENT, MAX_HEAP_GROWTH_PERCENT } from "../runtime/heap-growth.js";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_IN_FLIGHT_REQUESTS,
  MAX_IN_FLIGHT_REQUESTS_LIMIT,
  parseCount,
  parseDurationMs,
} from "./request-limits.js";

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
   * Local folder under which experiments get their default artifact location when artifacts are
   * not proxied (`--default-artifact-root`, a folder or a `file://` URI), and below which runs with
   * local artifact URIs are served.
   */
  artifactRoot: string;
  /**
   * The artifact root was given as a `file:` URI: experiments' default locations are then `file://`
   * URIs too (`file:///root/<id>`), as MLflow writes them, instead of plain paths.
   */
  artifactRootIsUri: boolean;
  /** Serve the `mlflow-artifacts` API (on unless `--no-serve-artifacts`). */
  serveArtifacts: boolean;
  /**
   * New experiments get `mlflow-artifacts:/<id>` (true when serving artifacts and no
   * `--default-artifact-root` was given) instead of a folder below artifactRoot.
   */
  proxyArtifacts: boolean;
  /** Local folder where proxied artifacts live (`--artifacts-destination`). */
  artifactsDestination: string;
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
   * TRACKER_AUTH_TOKEN: when set, every request except /health must carry
   * `Authorization: Bearer <token>` (see src/http/security.ts).
   */
  authToken?: string;
  /** TRACKER_WEB_DIR: folder of the built web UI served at `/` (default: apps/web/dist). */
  webDir?: string;
  /**
   * How far V8 may grow the heap after a full collection, in percent of what survived it
   * (TRACKER_HEAP_GROWTH_PERCENT, --heap-growth-percent; 0 leaves V8's own policy): see
   * runtime/heap-growth.ts.
   */
  heapGrowthPercent: number;
  /** Requests one process works on at once; beyond, 503 with Retry-After (0: no bound). See http/in-flight-limit.ts. */
  maxInFlightRequests: number;
  /** Milliseconds a request body may receive nothing before its connection is closed (0: never). See http/body-timeout.ts. */
  bodyTimeoutMs: number;
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
  return {
    host: overrides.host ?? env.HOST ?? "127.0.0.1",
    port: overrides.port ?? parsePort(env.PORT, 5000),
    databaseUrl,
    dataDir,
    embeddedDatabase: overrides.embeddedDatabase ?? parseEmbeddedDatabase(env.TRACKER_EMBEDDED_DATABASE),
    artifactRoot:
      explicitRoot === undefined
        ? path.join(dataDir, "artifacts")
        : localFolder(explicitRoot, "the default artifact root"),
    artifactRootIsUri: explicitRoot !== undefined && /^file:/i.test(explicitRoot),
    serveArtifacts,
    proxyArtifacts: overrides.proxyArtifacts ?? (serveArtifacts && explicitRoot === undefined),
    artifactsDestination: localFolder(
      overrides.artifactsDestination ?? (env.TRACKER_ARTIFACTS_DESTINATION || path.join(dataDir, "artifacts")),
      "the artifacts destination",
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
    authToken: overrides.authToken ?? (env.TRACKER_AUTH_TOKEN?.trim() || undefined),
    webDir: overrides.webDir ?? (env.TRACKER_WEB_DIR ? path.resolve(env.TRACKER_WEB_DIR) : undefined),
    heapGrowthPercent: overrides.heapGrowthPercent ?? parseHeapGrowthPercent(env.TRACKER_HEAP_GROWTH_PERCENT),
    maxInFlightRequests:
      overrides.maxInFlightRequests ??
      setting(env.TRACKER_MAX_IN_FLIGHT_REQUESTS, DEFAULT_MAX_IN_FLIGHT_REQUESTS, (raw) =>
        parseCount(raw, "TRACKER_MAX_IN_FLIGHT_REQUESTS", MAX_IN_FLIGHT_REQUESTS_LIMIT),
      ),
    bodyTimeoutMs:
      overrides.bodyTimeoutMs ??
      setting(env.TRACKER_BODY_TIMEOUT, DEFAULT_BODY_TIMEOUT_MS, (raw) => parseDurationMs(raw, "TRACKER_BODY_TIMEOUT")),
  };
}
