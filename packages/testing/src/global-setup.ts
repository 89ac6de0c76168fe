import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectDatabase, migrateLatest } from "./server.js";
import type { TestProject } from "vitest/node";
import "./test-server.js";

/**
 * Creating a PGlite data dir takes seconds; do it once per test run, migrated, and let every
 * test server start from a copy of it. Use as vitest `globalSetup: ["@tracker/testing/global-setup"]`.
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
