import path from "node:path";
import { LOG_FORMATS, type LogFormat } from "../logging/logger.js";

/** Runtime configuration of a tracker server process. */
export interface TrackerConfig {
  host: string;
  port: number;
  /** postgres:// URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  /** Folder for the embedded database and the default artifact root. */
  dataDir: string;
  /** Root folder under which experiments get their default artifact location. */
  artifactRoot: string;
  /** Path segment and system-tag prefix: `tracker` by default, `mlflow` for drop-in use. */
  namespace: string;
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
}

export class ConfigError extends Error {}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parseLogFormat(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === "") return "auto";
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new ConfigError(`log format must be one of ${LOG_FORMATS.join(", ")}, got "${raw}"`);
  return raw as LogFormat;
}

/** Reads the configuration from environment variables (see README: Configuration). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<TrackerConfig> = {}): TrackerConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.TRACKER_DATA_DIR ?? "./.tracker");
  const namespace = overrides.namespace ?? env.TRACKER_NAMESPACE ?? "tracker";
  if (!/^[a-z][a-z0-9_-]{0,30}$/.test(namespace)) {
    throw new ConfigError(`namespace must match ^[a-z][a-z0-9_-]{0,30}$, got "${namespace}"`);
  }
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined);
  return {
    host: overrides.host ?? env.HOST ?? "127.0.0.1",
    port: overrides.port ?? parsePort(env.PORT, 5000),
    databaseUrl,
    dataDir,
    artifactRoot: path.resolve(overrides.artifactRoot ?? env.TRACKER_ARTIFACT_ROOT ?? path.join(dataDir, "artifacts")),
    namespace,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? "info",
    logFormat: parseLogFormat(overrides.logFormat ?? env.TRACKER_LOG_FORMAT),
    validateResponses: overrides.validateResponses ?? env.TRACKER_VALIDATE_RESPONSES === "1",
    authToken: overrides.authToken ?? (env.TRACKER_AUTH_TOKEN?.trim() || undefined),
    webDir: overrides.webDir ?? (env.TRACKER_WEB_DIR ? path.resolve(env.TRACKER_WEB_DIR) : undefined),
  };
}
