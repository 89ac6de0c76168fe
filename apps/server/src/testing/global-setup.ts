import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { connectDatabase, migrateLatest } from "../db/connect.js";
import "./test-server.js";

/**
 * Creating a PGlite data dir takes seconds; do it once per test run, migrated, and let every
 * test server start from a copy of it.
 */
export default async function setup(project: TestProject) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-pglite-template-"));
  const dir = path.join(root, "pgdata");
  const database = connectDatabase({ pgliteDir: dir });
  await migrateLatest(database.knex);
  await database.close();
  project.provide("pgliteTemplate", dir);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
