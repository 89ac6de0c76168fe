import { Command, CommanderError, InvalidArgumentError } from "commander";
import {
  ConfigError,
  DEFAULT_DB_ACQUIRE_TIMEOUT_MS,
  DEFAULT_READINESS_TIMEOUT_MS,
  DEFAULT_S3_ABANDONED_UPLOAD_AGE_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  parseByteSize,
  parseDuration,
  type TrackerConfig,
} from "../config/config.js";
import { startEmbeddedDatabase, type EmbeddedChoice } from "../db/embedded-database.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { openDatabase, startServer, type RunningServer, type StartOptions } from "../server.js";
import { isPrimary, runPrimary } from "./cluster.js";
import { checkPostgresReachable, redactUrl } from "./database-check.js";
import { DEFAULT_HEAP_GROWTH_PERCENT, limitHeapGrowth, MAX_HEAP_GROWTH_PERCENT } from "../runtime/heap-growth.js";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_SESSION_LIFETIME_MS,
  DEFAULT_SHUTDOWN_DELAY_MS,
  DEFAULT_MAX_IN_FLIGHT_REQUESTS,
  MAX_IN_FLIGHT_REQUESTS_LIMIT,
  parseCount,
  parseDurationMs,
  SESSION_LIFETIME_RANGE,
} from "../config/request-limits.js";
import { configFromFlags, parseIntegerOption, workerCount, type ServerFlags } from "./options.js";
import { addUserCommands } from "./users.js";

/** The `tracker` command line: `tracker server`, `tracker db migrate` (alias `db upgrade`). */

function fail(message: string): never {
  process.stderr.write(`tracker: ${message}\n`);
  process.exit(2);
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0];

async function resolveConfig(flags: ServerFlags): Promise<TrackerConfig> {
  let config: TrackerConfig;
  try {
    config = configFromFlags(flags);
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : errorText(err));
  }
  if (config.databaseUrl) {
    try {
      await checkPostgresReachable(config.databaseUrl);
    } catch (err) {
      fail(`cannot reach the database ${redactUrl(config.databaseUrl)}: ${errorText(err)}`);
    }
  }
  return config;
}

function withServerFlags(cmd: Command): Command {
  return cmd
    .option("--host <host>", "address to bind (env HOST; default 127.0.0.1)")
    .option("--port <port>", "port to listen on (env PORT; default 5000)", parseIntegerOption(0, 65535))
    .option(
      "--backend-store-uri <uri>",
      "a postgresql:// URL, or a folder for the embedded database (env DATABASE_URL or TRACKER_DATA_DIR; default ./.tracker)",
    )
    .option(
      "--default-artifact-root <dir>",
      "folder, file:// or s3://bucket/prefix URI for new experiments' artifacts, written directly by clients instead of through the server (env TRACKER_ARTIFACT_ROOT)",
    )
    .option("--no-serve-artifacts", "do not serve the mlflow-artifacts API (env TRACKER_SERVE_ARTIFACTS=0)")
    .option(
      "--artifacts-destination <dir>",
      "folder, file:// or s3://bucket/prefix URI where served artifacts live (env TRACKER_ARTIFACTS_DESTINATION; default <data dir>/artifacts); S3 endpoint, region and credentials the AWS SDK's way (AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, ~/.aws)",
    )
    .option(
      "--s3-path-style",
      "path-style S3 addressing (endpoint/bucket/key), which most S3-compatible servers need (env TRACKER_S3_PATH_STYLE=1)",
    )
    .option(
      "--artifacts-only",
      "serve only the artifact API; tracking and registry answer 503 (env TRACKER_ARTIFACTS_ONLY=1)",
    )
    .option(
      "--max-artifact-size <bytes>",
      "largest artifact upload, e.g. 10GiB (env TRACKER_MAX_ARTIFACT_SIZE; default 10GiB)",
      byteSizeOption,
    )
    .option(
      "--namespace <name>",
      "one system-tag prefix for every path, e.g. mlflow (env TRACKER_NAMESPACE; default: mlflow.* on MLflow's paths, tracker.* on tracker's)",
    )
    .option(
      "--embedded-database <engine>",
      "without a postgresql:// URL: auto (PostgreSQL from the bundled binaries where they run, else PGlite; an existing PGlite data dir stays PGlite), postgres or pglite (env TRACKER_EMBEDDED_DATABASE; default auto)",
    )
    .option(
      "--statement-timeout <duration>",
      `longest a database statement may run (lock waits included), e.g. 30s or 500ms; 0 for no limit; not on PGlite (env TRACKER_STATEMENT_TIMEOUT; default ${DEFAULT_STATEMENT_TIMEOUT_MS / 1000}s)`,
      rangeOption((raw) => parseDuration(raw, "the duration", 0)),
    )
    .option(
      "--db-acquire-timeout <duration>",
      `longest a request waits for a free database connection (env TRACKER_DB_ACQUIRE_TIMEOUT; default ${DEFAULT_DB_ACQUIRE_TIMEOUT_MS / 1000}s)`,
      rangeOption((raw) => parseDuration(raw, "the duration", 1)),
    )
    .option(
      "--readiness-timeout <duration>",
      `longest /health/ready waits for the database before answering 503 (env TRACKER_READINESS_TIMEOUT; default ${DEFAULT_READINESS_TIMEOUT_MS / 1000}s)`,
      rangeOption((raw) => parseDuration(raw, "the duration", 1)),
    )
    .option(
      "--log-format <format>",
      "auto (human lines on a terminal, JSON lines otherwise), json or pretty (env TRACKER_LOG_FORMAT; default auto)",
    );
}

/** A commander option parser from a parser that throws RangeError or ConfigError. */
function rangeOption(parse: (raw: string) => number): (raw: string) => number {
  return (raw) => {
    try {
      return parse(raw);
    } catch (err) {
      throw new InvalidArgumentError(errorText(err));
    }
  };
}

function byteSizeOption(value: string): number {
  try {
    return parseByteSize(value);
  } catch (err) {
    throw new InvalidArgumentError(errorText(err));
  }
}

/** Exit code of `tracker server` when its embedded PostgreSQL died and could not be restarted. */
export const EXIT_DATABASE_LOST = 3;

/** Set by the primary for its workers: the embedded PostgreSQL it started, and how to name it. */
const SHARED_URL = "TRACKER_EMBEDDED_DATABASE_URL";
const SHARED_DESCRIPTION = "TRACKER_EMBEDDED_DATABASE_DESCRIPTION";

/** Starts the embedded database for `tracker server` when there is no database URL (see db/embedded-database.ts). */
async function embeddedFor(config: TrackerConfig, logger: Logger): Promise<EmbeddedChoice | undefined> {
  if (config.databaseUrl) return undefined;
  try {
    return await startEmbeddedDatabase(config, logger, {
      // It cannot come back by itself (the reason was logged): exit non-zero, so that whatever
      // supervises tracker (systemd, an orchestrator) restarts it, instead of answering 503 forever.
      onGiveUp: () => process.exit(EXIT_DATABASE_LOST),
    });
  } catch (err) {
    fail(`cannot start the embedded database: ${errorText(err)}`);
  }
}

async function serve(flags: ServerFlags): Promise<void> {
  if (!isPrimary()) return serveWorker(flags);
  let config = await resolveConfig(flags);
  const logger = createLogger(config.logLevel, config.logFormat);
  // An embedded PostgreSQL belongs to this (primary) process: its workers share it, and it stops last.
  const embedded = await embeddedFor(config, logger);
  const shared = embedded?.kind === "postgres" ? embedded : undefined;
  const stopEmbedded = async () => shared?.server.stop();
  // The engine is chosen once, here: the server connects to the started PostgreSQL by its URL, or
  // opens PGlite without probing PostgreSQL's binaries (and saying why not) a second time.
  if (shared) config = { ...config, databaseUrl: shared.server.url };
  else if (embedded) config = { ...config, embeddedDatabase: "pglite" };
  let workers: number;
  try {
    workers = workerCount(flags, process.env, Boolean(config.databaseUrl));
  } catch (err) {
    await stopEmbedded();
    fail(`--workers ${errorText(err)}`);
  }
  if (workers > 1) {
    if (!config.databaseUrl)
      fail(
        "--workers above 1 needs PostgreSQL (--backend-store-uri postgresql://..., or the embedded PostgreSQL); PGlite is single-process",
      );
    try {
      // Migrate once before the workers start.
      await (await openDatabase(config)).close();
    } catch (err) {
      await stopEmbedded();
      fail(`cannot prepare the database: ${errorText(err)}`);
    }
    const workerEnv = shared ? { [SHARED_URL]: shared.server.url, [SHARED_DESCRIPTION]: shared.description } : {};
    runPrimary(workers, logger, { workerEnv, afterWorkers: stopEmbedded });
    return;
  }
  await runServer(config, logger, { workers, databaseDescription: embedded?.description }, stopEmbedded);
}

/** A node:cluster worker: the primary's database (an embedded PostgreSQL's URL comes from it). */
async function serveWorker(flags: ServerFlags): Promise<void> {
  let config = configFromFlags(flags);
  const sharedUrl = process.env[SHARED_URL];
  if (sharedUrl) config = { ...config, databaseUrl: sharedUrl };
  const workers = workerCount(flags, process.env, true);
  await runServer(config, createLogger(config.logLevel, config.logFormat), {
    workers,
    databaseDescription: process.env[SHARED_DESCRIPTION] || undefined,
  });
}

/** Serves until SIGTERM/SIGINT, then finishes in-flight requests, closes the pool and runs `after`. */
async function runServer(
  config: TrackerConfig,
  logger: Logger,
  options: StartOptions,
  after: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  let server: RunningServer;
  logger.debug({ heapGrowth: limitHeapGrowth(config.heapGrowthPercent) }, "heap growth after a full collection");
  try {
    server = await startServer(config, logger, options);
  } catch (err) {
    await after().catch(() => undefined);
    fail(`cannot start: ${errorText(err)}`);
  }
  const shutdown = (signal: string) => {
    server.logger.info({ signal }, "shutting down: finishing in-flight requests");
    server
      .drain()
      .then(after)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

async function migrate(flags: ServerFlags): Promise<void> {
  const config = await resolveConfig(flags);
  try {
    // The log names the migrations applied, if any.
    await (await openDatabase(config, createLogger(config.logLevel, config.logFormat))).close();
  } catch (err) {
    fail(`migration failed: ${errorText(err)}`);
  }
  process.stdout.write(
    `database is up to date (${config.databaseUrl ? redactUrl(config.databaseUrl) : config.dataDir})\n`,
  );
}

export function buildProgram(): Command {
  const program = new Command("tracker")
    .description("tracker: experiment tracking server and model registry, compatible with MLflow clients")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  withServerFlags(program.command("server").description("start the HTTP server"))
    .option(
      "--workers <n>",
      "number of server processes; above 1 needs PostgreSQL, embedded or not (env TRACKER_WORKERS; default: the number of CPUs on PostgreSQL, 1 on PGlite)",
      parseIntegerOption(1, 64),
    )
    .option(
      "--heap-growth-percent <n>",
      `how far each server process lets V8 grow its heap after a full garbage collection, in percent of the live heap; 0 leaves V8's own policy (env TRACKER_HEAP_GROWTH_PERCENT; default ${DEFAULT_HEAP_GROWTH_PERCENT})`,
      parseIntegerOption(0, MAX_HEAP_GROWTH_PERCENT),
    )
    .option(
      "--allowed-hosts <names>",
      "comma-separated host names the server answers to besides IP addresses, localhost, the machine's name and --host, `*` wildcards (env TRACKER_ALLOWED_HOSTS); against DNS rebinding",
    )
    .option(
      "--cors-allowed-origins <origins>",
      "comma-separated origins (https://ui.example.com) allowed to write besides the server's own, `*` wildcards (env TRACKER_CORS_ALLOWED_ORIGINS)",
    )
    .option(
      "--auth <mode>",
      "none, or users: users and permissions with HTTP Basic and Bearer tokens, MLflow's basic-auth API and permissions (env TRACKER_AUTH; default none)",
    )
    .option("--app-name <name>", "MLflow's spelling of --auth users: `--app-name basic-auth`")
    .option(
      "--auth-default-permission <permission>",
      "with --auth users: READ, EDIT, MANAGE or NO_PERMISSIONS on what no permission names a user for (env TRACKER_AUTH_DEFAULT_PERMISSION; default READ)",
    )
    .option(
      "--auth-trusted-header <name>",
      "with --auth users: single sign-on by a reverse proxy, the header naming the signed-in user (X-Forwarded-User, X-Forwarded-Email), believed only from --auth-trusted-proxies; unknown users are created with the default permission (env TRACKER_AUTH_TRUSTED_HEADER)",
    )
    .option(
      "--auth-trusted-proxies <cidrs>",
      "comma-separated addresses and CIDR ranges of the proxies whose --auth-trusted-header is believed; from elsewhere the header is ignored (env TRACKER_AUTH_TRUSTED_PROXIES)",
    )
    .option(
      "--auth-jwt-jwks <url-or-file>",
      "with --auth users: accept Bearer JWTs signed by these keys (a JWKS URL or file; RS256, PS256, ES256); for HS256 set env TRACKER_AUTH_JWT_SECRET instead (env TRACKER_AUTH_JWT_JWKS)",
    )
    .option(
      "--auth-jwt-audience <aud>",
      "the audience JWTs must name; required with JWTs (env TRACKER_AUTH_JWT_AUDIENCE)",
    )
    .option("--auth-jwt-issuer <iss>", "the issuer JWTs must name, when set (env TRACKER_AUTH_JWT_ISSUER)")
    .option(
      "--auth-jwt-claim <claim>",
      "the JWT claim naming the user: sub, username, email, ... (env TRACKER_AUTH_JWT_CLAIM; default sub)",
    )
    .option(
      "--session-lifetime <duration>",
      `how long a web UI sign-in lasts (12h, 7d, 30d; from 1 minute to 365 days); signing out, a password change or deleting the user ends it sooner (env TRACKER_SESSION_LIFETIME; default ${DEFAULT_SESSION_LIFETIME_MS / 86_400_000}d)`,
      rangeOption((raw) => parseDurationMs(raw, "--session-lifetime", SESSION_LIFETIME_RANGE)),
    )
    .option(
      "--disable-security-middleware",
      "turn off the Host, Origin and Content-Type checks against cross-site requests, e.g. behind a proxy that rewrites them (env TRACKER_DISABLE_SECURITY_MIDDLEWARE=1)",
    )
    .option(
      "--max-in-flight-requests <n>",
      `requests each server process works on at once; beyond, clients get 503 with Retry-After (health probes excepted); 0: no bound (env TRACKER_MAX_IN_FLIGHT_REQUESTS; default ${DEFAULT_MAX_IN_FLIGHT_REQUESTS})`,
      rangeOption((raw) => parseCount(raw, "--max-in-flight-requests", MAX_IN_FLIGHT_REQUESTS_LIMIT)),
    )
    .option(
      "--body-timeout <duration>",
      `close a connection whose request body received nothing for this long (60, 60s, 500ms, 2m); a slow body that moves is never cut; 0: never (env TRACKER_BODY_TIMEOUT; default ${DEFAULT_BODY_TIMEOUT_MS / 1000}s)`,
      rangeOption((raw) => parseDurationMs(raw, "--body-timeout")),
    )
    .option(
      "--shutdown-delay <duration>",
      `after SIGTERM, keep serving this long with /health/ready answering 503 and every answer saying Connection: close, so a load balancer takes this server out first; set it above the balancer's health-check interval x unhealthy threshold (env TRACKER_SHUTDOWN_DELAY; default ${DEFAULT_SHUTDOWN_DELAY_MS / 1000}s)`,
      rangeOption((raw) => parseDurationMs(raw, "--shutdown-delay")),
    )
    .option(
      "--drain-timeout <duration>",
      `after it stops accepting, wait at most this long for the requests in flight, then close their connections and exit; 0: no bound (env TRACKER_DRAIN_TIMEOUT; default ${DEFAULT_DRAIN_TIMEOUT_MS / 1000}s)`,
      rangeOption((raw) => parseDurationMs(raw, "--drain-timeout")),
    )
    .option(
      "--s3-abandoned-upload-age <duration>",
      `abort multipart uploads left unfinished this long in the S3 artifact stores (a crashed server's, a client's that gave up), at start-up and then every hour or sooner; 0: never (env TRACKER_S3_ABANDONED_UPLOAD_AGE; default ${DEFAULT_S3_ABANDONED_UPLOAD_AGE_MS / 3_600_000}h)`,
      rangeOption((raw) => parseDurationMs(raw, "--s3-abandoned-upload-age")),
    )
    .action(serve);

  const db = program.command("db").description("database maintenance").exitOverride();
  withServerFlags(db.command("migrate").description("apply pending migrations and exit")).action(migrate);
  withServerFlags(db.command("upgrade").description("alias of `db migrate`, as MLflow names it")).action(migrate);
  addUserCommands(program, withServerFlags, resolveConfig, fail);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; usage errors (already printed by commander) exit 2.
      process.exit(err.exitCode === 0 ? 0 : 2);
    }
    fail(errorText(err));
  }
}
