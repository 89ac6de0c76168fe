import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";
import type { Logger } from "../logging/logger.js";
import { driverLog } from "./driver-log.js";
import { migrationSource } from "./migrations/index.js";
import { refuseNewerSchema } from "./newer-schema.js";

export type DatabaseKind = "postgres" | "pglite";

export interface Database {
  knex: Knex;
  kind: DatabaseKind;
  /** What serves the data, for the start-up line (no password). */
  description?: string;
  /** The PostgreSQL URL it connects to (none for PGlite). */
  url?: string;
  close(): Promise<void>;
}

// int8 and numeric counts come back as strings from pg; the ids and timestamps we store are
// all within the safe integer range, so parse them as numbers (PGlite already does).
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

/**
 * Connections per server process to PostgreSQL. A query holds a connection only while it runs (no
 * connection is held across a streamed response), but a short query's connection also sits
 * through the round trips around it (the network, this process's event loop), so a pool sized
 * by PostgreSQL's rule for busy connections (2 x cores + 1) leaves the database waiting. Default:
 * 4 per core, at least 10 (knex's default), shared out among the `workers` server processes
 * (each has its own pool; at least 2 each): N workers open no more connections than one process
 * would, and a worker's connections stay as busy as a single process's (issue 33: with a whole
 * pool each, 2 workers spent ~15% more CPU per statement on the client side). TRACKER_DB_POOL_MAX
 * overrides it, per process.
 */
export function defaultPoolSize(env: NodeJS.ProcessEnv = process.env, workers = 1): number {
  const raw = env.TRACKER_DB_POOL_MAX;
  if (raw !== undefined && raw !== "") {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 1000)
      throw new Error(`TRACKER_DB_POOL_MAX must be an integer from 1 to 1000, got "${raw}"`);
    return n;
  }
  return Math.max(2, Math.ceil(Math.max(10, 4 * os.availableParallelism()) / workers));
}

export interface ConnectOptions {
  databaseUrl?: string;
  /** Folder of the embedded database (PGlite) when no databaseUrl is given. */
  pgliteDir?: string;
  /** Connection pool size for PostgreSQL (default: defaultPoolSize()). */
  poolMax?: number;
  /** Where the driver's warnings go (default: knex prints them on the console). */
  logger?: Logger;
  /**
   * PostgreSQL's statement_timeout on every connection, in ms (0: none; default 30 s). A statement
   * the server never answers (a frozen server cannot time itself out) fails on this side
   * noAnswerMargin() later, and its connection is dropped.
   */
  statementTimeoutMs?: number;
  /** Longest wait for a free pooled connection, in ms (default 10 s). */
  acquireTimeoutMs?: number;
}

/** How long after the statement timeout a statement that got no answer at all fails here: a tenth of it, at least 1 s. */
export const noAnswerMargin = (statementTimeoutMs: number): number =>
  Math.max(1_000, Math.round(statementTimeoutMs / 10));

/** pg's client, with the state pg keeps but does not declare. */
type PgConnection = pg.Client & { readyForQuery?: boolean };

/** Opens the database selected by the options: PostgreSQL for a URL, else embedded PGlite. */
export function connectDatabase(options: ConnectOptions): Database {
  const log = options.logger ? driverLog(options.logger) : undefined;
  if (options.databaseUrl) {
    const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
    const knex = knexFactory({
      ...(log ? { log: log.log } : {}),
      client: "pg",
      // A connect attempt to an unreachable host gives up after 5 s (the request gets 503) and
      // TCP keep-alive notices dead peers; connections that died while PostgreSQL was down are
      // dropped by knex's pool validation, so the pool recovers by itself when it is back.
      // query_timeout: a statement with no answer at all (the server frozen, the network gone
      // silent) fails a margin after the server's own statement_timeout would have ended it.
      connection: {
        connectionString: options.databaseUrl,
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        ...(statementTimeoutMs > 0 ? { query_timeout: statementTimeoutMs + noAnswerMargin(statementTimeoutMs) } : {}),
      },
      pool: {
        min: 0,
        max: options.poolMax ?? defaultPoolSize(),
        idleTimeoutMillis: 30_000,
        createTimeoutMillis: 5_000,
        // A failed connect fails the waiting request at once (503) instead of retrying until the
        // acquire timeout (knex's default, stated here because the fault tests rely on it).
        propagateCreateError: true,
        // A connection whose statement got no answer (query_timeout above) still waits for it: it
        // is dropped, not handed to the next query.
        validate: (connection: PgConnection) => connection.readyForQuery !== false,
        // statement_timeout for the session (see ConnectOptions). JIT compilation off for the session: PostgreSQL compiles a statement whose estimated cost
        // passes jit_above_cost, and the planner's estimates of the bulk-interval and search
        // statements (CTEs, unions) are far above what they read, so it spent ~55 ms compiling a
        // 50 ms statement. tracker's statements are short; none gains from JIT. One statement per
        // new connection (SETs, not startup options, so poolers that refuse options still work).
        afterCreate(connection: pg.Client, done: (err: Error | null, connection: unknown) => void) {
          connection.query(`SET jit = off; SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`).then(
            () => {
              log?.connected();
              done(null, connection);
            },
            (err: Error) => done(err, connection),
          );
        },
      },
      acquireConnectionTimeout: options.acquireTimeoutMs ?? 10_000,
    });
    return { knex, kind: "postgres", url: options.databaseUrl, close: () => knex.destroy() };
  }
  if (!options.pgliteDir) throw new Error("connectDatabase: pgliteDir is required without databaseUrl");
  fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: "postgres",
    connection: { filename: options.pgliteDir },
    useNullAsDefault: true,
    ...(log ? { log: log.log } : {}),
  } as Knex.Config);
  return { knex, kind: "pglite", close: () => knex.destroy() };
}

/**
 * Applies every pending migration and returns their names (none: it was up to date); refuses a
 * database migrated by a newer build (NewerSchemaError).
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  await refuseNewerSchema(knex);
  const [, applied]: [number, string[]] = await knex.migrate.latest({ migrationSource });
  return applied;
}
