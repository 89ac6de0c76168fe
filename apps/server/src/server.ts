import cluster from "node:cluster";
import { ensureAdmin } from "./core/auth/bootstrap.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TrackerConfig } from "./config/config.js";
import { redactUrl } from "./db/redact-url.js";
import { connectDatabase, defaultPoolSize, migrateLatest, type Database } from "./db/connect.js";
import { withMigrationLock } from "./db/migration-lock.js";
import { ensureDefaultExperiment } from "./core/experiments.js";
import { abortAbandonedMultipartUploads, s3Stores, sweepUploads } from "./core/artifacts.js";
import { seedFromTemplate } from "./db/pglite-template.js";
import { startEmbeddedDatabase } from "./db/embedded-database.js";
import { appReady, appValidation, createApp } from "./http/app.js";
import { warmRequestValidators } from "./http/validator-warm-up.js";
import { manageConnections, type RequestActivity } from "./http/connections.js";
import { limitBodyIdleTime } from "./http/body-timeout.js";
import { answerClientErrors } from "./http/security.js";
import { handlers } from "./http/handlers/index.js";
import { createLogger, type Logger } from "./logging/logger.js";
import { announceStartup } from "./runtime/cluster-startup.js";
import type { Services } from "./core/services.js";

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  logger: Logger;
  /**
   * Shuts down as a server behind a load balancer should: for `config.shutdownDelayMs` keeps
   * serving while /health/ready answers 503 and every answer closes its connection, then closes.
   */
  drain(): Promise<void>;
  /**
   * Stops accepting connections, lets in-flight requests finish (at most `config.drainTimeoutMs`,
   * then cuts them), closes the pool.
   */
  close(): Promise<void>;
  /** Requests received so far, and those not over yet (answer closed and handler settled: http/request-work.ts). */
  activity(): RequestActivity;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
}

/**
 * Opens the configured database and migrates it to the latest schema; `workers` is the number of
 * server processes that share the database's default pool size (db/connect.ts defaultPoolSize).
 */
export async function openDatabase(config: TrackerConfig, logger?: Logger, workers = 1): Promise<Database> {
  const database = config.databaseUrl
    ? {
        ...connectDatabase({ ...postgresOptions(config, workers), databaseUrl: config.databaseUrl, logger }),
        description: `PostgreSQL ${redactUrl(config.databaseUrl)}`,
      }
    : await openEmbeddedDatabase(config, logger);
  try {
    await migrate(database, logger);
    await ensureDefaultExperiment(database.knex, config);
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  return database;
}

/** The pool's timeouts from the configuration, and its size for one of `workers` server processes. */
const postgresOptions = (config: TrackerConfig, workers = 1) => ({
  statementTimeoutMs: config.statementTimeoutMs,
  acquireTimeoutMs: config.dbAcquireTimeoutMs,
  poolMax: defaultPoolSize(process.env, workers),
});

/**
 * Applies pending migrations. On PostgreSQL over a connection of its own without the statement
 * timeout (a migration rewrites whole tables, and may take longer than any request should), and
 * one server process at a time (db/migration-lock.ts): several may start at once.
 */
async function migrate(database: Database, logger?: Logger): Promise<void> {
  const applied = await migrateOnce(database, logger);
  if (applied.length > 0) logger?.info({ migrations: applied }, `applied ${applied.length} database migration(s)`);
}

async function migrateOnce(database: Database, logger?: Logger): Promise<string[]> {
  if (!database.url) return migrateLatest(database.knex);
  const url = database.url;
  return withMigrationLock(url, async () => {
    const untimed = connectDatabase({ databaseUrl: url, poolMax: 1, statementTimeoutMs: 0, logger });
    try {
      // Holding the lock, no other server is migrating: a knex lock left set by a process killed
      // mid-migration (its migration rolled back with its connection) would block every start.
      await untimed.knex.migrate.forceFreeMigrationsLock();
      return await migrateLatest(untimed.knex);
    } finally {
      await untimed.close();
    }
  });
}

/** The embedded database (see db/embedded-database.ts), stopped when the pool closes. */
async function openEmbeddedDatabase(config: TrackerConfig, logger?: Logger): Promise<Database> {
  const embedded = await startEmbeddedDatabase(config, logger);
  if (embedded.kind === "pglite") {
    seedFromTemplate(embedded.dir);
    return { ...connectDatabase({ pgliteDir: embedded.dir, logger }), description: embedded.description };
  }
  const database = connectDatabase({ ...postgresOptions(config), databaseUrl: embedded.server.url, logger });
  return {
    ...database,
    description: embedded.description,
    async close() {
      try {
        await database.close();
      } finally {
        await embedded.server.stop();
      }
    },
  };
}

/** Removes the temporary files of uploads a crash cut short; a destination that cannot be read is only reported. */
async function sweepLeftUploads(config: TrackerConfig, logger: Logger): Promise<void> {
  try {
    const removed = await sweepUploads(config);
    if (removed > 0) logger.info({ removed }, "removed the temporary files of uploads cut short by a crash");
  } catch (err) {
    logger.warn({ err }, "cannot prepare the artifact upload folder; uploads will fail until it can be made");
  }
}

/** Longest between two sweeps of abandoned multipart uploads (sooner when the age is shorter, never under a minute). */
const MULTIPART_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Aborts the multipart uploads left unfinished in the S3 stores longer than
 * `config.s3AbandonedUploadAgeMs`: once now (in the background: serving does not wait for S3), then
 * periodically while the server runs. A failure is only reported; the next sweep tries again.
 * Returns what stops it.
 */
function sweepAbandonedMultipartUploads(config: TrackerConfig, logger: Logger): () => void {
  const age = config.s3AbandonedUploadAgeMs;
  if (age <= 0 || s3Stores(config).length === 0) return () => undefined;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const aborted = await abortAbandonedMultipartUploads(config, age);
      if (aborted > 0)
        logger.info({ aborted, olderThanMs: age }, "aborted abandoned multipart uploads in the S3 artifact store");
    } catch (err) {
      logger.warn({ err }, "cannot sweep the S3 artifact store for abandoned multipart uploads; will try again");
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), Math.max(60_000, Math.min(age, MULTIPART_SWEEP_INTERVAL_MS)));
  timer.unref();
  return () => clearInterval(timer);
}

export interface StartOptions {
  /** Server processes of this tracker (for the start-up lines; node:cluster workers log them once). */
  workers?: number;
  /** What the start-up line says serves the data, when the URL does not say it (an embedded PostgreSQL). */
  databaseDescription?: string;
}

/** Starts a tracker server with the given configuration. */
export async function startServer(
  config: TrackerConfig,
  logger: Logger = createLogger(config.logLevel, config.logFormat),
  options: StartOptions = {},
): Promise<RunningServer> {
  const database = await openDatabase(config, logger, options.workers);
  const lifecycle = { draining: false };
  const services: Services = { knex: database.knex, databaseKind: database.kind, config, lifecycle };
  if (config.auth === "users") {
    const admin = await ensureAdmin(database.knex, config.authAdmin);
    if (admin === "created") logger.info({ username: config.authAdmin?.username }, "created the admin user");
    if (admin === "no users")
      logger.warn(
        "users and permissions are on but there is no user: set TRACKER_AUTH_ADMIN_USERNAME and TRACKER_AUTH_ADMIN_PASSWORD, or run `tracker users create --admin <name>`",
      );
  }
  if (config.serveArtifacts) await sweepLeftUploads(config, logger);
  const app = createApp({ services, logger, handlers });
  // Listening only once every API document is loaded: until then requests would wait behind it.
  await appReady(app);
  const server = http.createServer(app);
  answerClientErrors(server);
  limitBodyIdleTime(server, config.bodyTimeoutMs, logger);
  const connections = manageConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  const startup = {
    startup: true,
    url,
    database: options.databaseDescription ?? database.description,
    databaseKind: database.kind,
    // Where uploads through the server go, and the folder of experiments with local locations.
    artifactsDestination: config.serveArtifacts ? config.artifactsDestination : undefined,
    artifactRoot: config.proxyArtifacts ? undefined : config.artifactRoot,
    namespace: config.namespace,
    workers: options.workers ?? 1,
    auth: config.auth === "users" ? "users" : config.authToken ? "bearer token" : "none",
  };
  // With node:cluster every worker listens on the same port: the primary says so once, for the
  // first worker that listens (cli/cluster.ts), whichever finished its start first.
  if (cluster.isWorker) {
    logger.debug(startup, "tracker server listening");
    announceStartup(startup);
  } else logger.info(startup, "tracker server listening");
  const stopSweeping = sweepAbandonedMultipartUploads(config, logger);
  const validation = config.warmUp ? appValidation(app) : undefined;
  const warming = validation ? warmRequestValidators(app, validation) : undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.draining = true;
      stopSweeping();
      warming?.stop();
      const cut = await connections.close(config.drainTimeoutMs);
      if (cut > 0)
        logger.warn(
          { requests: cut, drainTimeoutMs: config.drainTimeoutMs },
          "drain timeout: closed the connections of requests still in flight",
        );
      await database.close();
    })();
    return closing;
  };
  return {
    url,
    port,
    database,
    logger,
    async drain() {
      lifecycle.draining = true;
      connections.drain();
      if (config.shutdownDelayMs > 0) {
        logger.info({ shutdownDelayMs: config.shutdownDelayMs }, "draining: readiness answers 503 before closing");
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      await close();
    },
    close,
    activity: () => connections.activity(),
    idle: () => connections.idle(),
  };
}
