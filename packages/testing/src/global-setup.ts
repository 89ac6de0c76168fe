import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtTemplateIsCurrent } from "./built-template.js";
import { connectDatabase, migrateLatest, SERVER_DIR } from "./server.js";
import type { TestProject } from "vitest/node";
import "./test-server.js";

/** The server build's migrated PGlite template (`pnpm build` makes it) and the migrations it was made from. */
const BUILT_TEMPLATE = path.join(SERVER_DIR, "dist", "pglite-template");
const MIGRATIONS = path.join(SERVER_DIR, "src", "db", "migrations");

async function migrateAt(dir: string): Promise<void> {
  const database = connectDatabase({ pgliteDir: dir });
  try {
    await migrateLatest(database.knex);
  } finally {
    await database.close();
  }
}

/**
 * Creating a PGlite data dir takes seconds (~8 s of CPU); do it once per test run, migrated, and
 * let every test server start from a copy of it. The build's template is copied when it is
 * current (then migrating is a check that finds nothing to do); otherwise one is made from
 * scratch. Use as vitest `globalSetup: ["@tracker/testing/global-setup"]`.
 */
export default async function setup(project: TestProject) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-pglite-template-"));
  const dir = path.join(root, "pgdata");
  if (builtTemplateIsCurrent(BUILT_TEMPLATE, MIGRATIONS)) {
    fs.cpSync(BUILT_TEMPLATE, dir, { recursive: true });
    // A template the sources cannot migrate (e.g. made on another branch): make one from scratch.
    await migrateAt(dir).catch(() => fs.rmSync(dir, { recursive: true, force: true }));
  }
  if (!fs.existsSync(dir)) await migrateAt(dir);
  project.provide("pgliteTemplate", dir);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
