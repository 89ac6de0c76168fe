import type { Knex } from "knex";
import * as initial from "./0001_initial.js";
import * as registry from "./0002_registry.js";
import * as performanceIndexes from "./0003_performance.js";
import * as aliasesDatasets from "./0004_aliases_datasets.js";
import * as metricPoints from "./0005_metric_points.js";
import * as metricRollups from "./0006_metric_rollups.js";
import * as systemTagsMlflow from "./0007_system_tags_mlflow.js";
import * as runModelLinks from "./0008_run_model_links.js";
import * as loggedModels from "./0009_logged_models.js";
import * as entityTagsMlflow from "./0010_entity_tags_mlflow.js";
import * as usersPermissions from "./0011_users_permissions.js";
import * as webSessions from "./0012_web_sessions.js";
import * as authThrottleAudit from "./0013_auth_throttle_audit.js";
import * as metricRollups64 from "./0014_metric_rollups_64.js";

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations in order. Add new files here; never edit a released one. */
const migrations: ReadonlyArray<[string, Migration]> = [
  ["0001_initial", initial],
  ["0002_registry", registry],
  ["0003_performance", performanceIndexes],
  ["0004_aliases_datasets", aliasesDatasets],
  ["0005_metric_points", metricPoints],
  ["0006_metric_rollups", metricRollups],
  ["0007_system_tags_mlflow", systemTagsMlflow],
  ["0008_run_model_links", runModelLinks],
  ["0009_logged_models", loggedModels],
  ["0010_entity_tags_mlflow", entityTagsMlflow],
  ["0011_users_permissions", usersPermissions],
  ["0012_web_sessions", webSessions],
  ["0013_auth_throttle_audit", authThrottleAudit],
  ["0014_metric_rollups_64", metricRollups64],
];

/** The names of this build's migrations, in order. */
export const migrationNames: readonly string[] = migrations.map(([name]) => name);

/** A static migration source, so the compiled server needs no file-system globbing. */
export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  async getMigrations() {
    return [...migrations];
  },
  getMigrationName([name]) {
    return name;
  },
  async getMigration([, migration]) {
    return migration;
  },
};
