import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectDatabase, migrateLatest } from "./connect.js";

/**
 * Initialising a new PGlite data dir takes seconds. The build creates a migrated template once
 * (dist/pglite-template); a first start copies it (well under a second) instead.
 */
export const DEFAULT_TEMPLATE_DIR = fileURLToPath(new URL("../../dist/pglite-template", import.meta.url));

const isInitialised = (dir: string) => fs.existsSync(path.join(dir, "PG_VERSION"));

/** Creates a migrated PGlite data dir at `dir` (replacing whatever is there). */
export async function buildPgliteTemplate(dir: string): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  const database = connectDatabase({ pgliteDir: dir });
  try {
    await migrateLatest(database.knex);
  } finally {
    await database.close();
  }
}

/** Seeds a missing data dir from the template when there is one; returns whether it copied. */
export function seedFromTemplate(dataDir: string, templateDir = DEFAULT_TEMPLATE_DIR): boolean {
  if (isInitialised(dataDir) || !isInitialised(templateDir)) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return false;
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.cpSync(templateDir, dataDir, { recursive: true });
  return true;
}
