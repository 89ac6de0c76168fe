import fs from "node:fs";
import path from "node:path";
import type { TrackerConfig } from "../config/config.js";
import type { Logger } from "../logging/logger.js";
import {
  EmbeddedPostgresUnavailable,
  embeddedPostgresDir,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "./embedded-postgres.js";
import type { SupervisionOptions } from "./postmaster-supervisor.js";

/** What serves a tracker without DATABASE_URL. */
export type EmbeddedChoice =
  | { kind: "postgres"; server: EmbeddedPostgres; description: string }
  | { kind: "pglite"; dir: string; description: string };

/** PGlite's data dir under tracker's data folder. */
export const pgliteDir = (dataDir: string): string => path.join(dataDir, "pgdata");

const holdsDatabase = (dir: string) => fs.existsSync(path.join(dir, "PG_VERSION"));

const pglite = (dataDir: string, note?: string): EmbeddedChoice => ({
  kind: "pglite",
  dir: pgliteDir(dataDir),
  description: `PGlite (embedded) in ${pgliteDir(dataDir)}${note ? ` (${note})` : ""}`,
});

/**
 * Starts the embedded database that `config.embeddedDatabase` selects:
 * - `pglite`: PGlite in `<data dir>/pgdata`;
 * - `postgres`: PostgreSQL in `<data dir>/postgres` (an error where its binaries cannot run);
 * - `auto`: the database already in the data dir (PostgreSQL's, else PGlite's, so that nobody's
 *   data disappears behind a new default); for a new data dir PostgreSQL, or PGlite where the
 *   PostgreSQL binaries cannot run here (said in a log line).
 */
export async function startEmbeddedDatabase(
  config: TrackerConfig,
  logger?: Logger,
  supervision?: SupervisionOptions,
): Promise<EmbeddedChoice> {
  const { dataDir, embeddedDatabase: mode } = config;
  const postgresDir = embeddedPostgresDir(dataDir);
  if (mode === "pglite") return pglite(dataDir);
  if (mode === "auto" && !holdsDatabase(postgresDir) && holdsDatabase(pgliteDir(dataDir))) {
    return pglite(dataDir, "the existing PGlite database of this data dir");
  }
  try {
    const server = await startEmbeddedPostgres(postgresDir, { logger, supervision });
    return { kind: "postgres", server, description: `PostgreSQL 18 (embedded, pid ${server.pid}) in ${postgresDir}` };
  } catch (err) {
    if (mode !== "auto" || !(err instanceof EmbeddedPostgresUnavailable)) throw err;
    logger?.info({ reason: err.message }, "embedded PostgreSQL cannot run here: using PGlite");
    return pglite(dataDir, "PostgreSQL binaries unavailable");
  }
}
