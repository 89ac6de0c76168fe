import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { TrackerConfig } from "./config/config.js";
import { connectDatabase, migrateLatest, type Database } from "./db/connect.js";
import { ensureDefaultExperiment } from "./db/seed.js";
import { seedFromTemplate } from "./db/pglite-template.js";
import { createApp } from "./http/app.js";
import { answerClientErrors } from "./http/security.js";
import { handlers } from "./http/handlers/index.js";
import { createLogger, type Logger } from "./logging/logger.js";
import type { Services } from "./core/services.js";

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  logger: Logger;
  /** Stops accepting connections, lets in-flight requests finish, closes the pool. */
  close(): Promise<void>;
}

/** Opens the configured database and migrates it to the latest schema. */
export async function openDatabase(config: TrackerConfig): Promise<Database> {
  const pgliteDir = path.join(config.dataDir, "pgdata");
  if (!config.databaseUrl) seedFromTemplate(pgliteDir);
  const database = connectDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
  try {
    await migrateLatest(database.knex);
    await ensureDefaultExperiment(database.knex, config);
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  return database;
}

/** Starts a tracker server with the given configuration. */
export async function startServer(config: TrackerConfig, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const database = await openDatabase(config);
  const services: Services = { knex: database.knex, databaseKind: database.kind, config };
  const app = createApp({ services, logger, handlers });
  const server = http.createServer(app);
  answerClientErrors(server);
  // Idle keep-alive connections stay open longer than clients keep theirs (undici 4 s, load
  // balancers 60 s), so a client never sends on a connection the server is closing. Headers must
  // arrive within headersTimeout; a body (a large artifact upload over a slow link) may take as long
  // as it needs (Node's default requestTimeout of 300 s would cut it).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, database: database.kind }, "tracker server listening");
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    database,
    logger,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await database.close();
      })();
      return closing;
    },
  };
}
