import type { Knex } from "knex";
import type { TrackerConfig } from "../config/config.js";
import type { DatabaseKind } from "../db/connect.js";

/** Everything the core needs, built once per process and handed to every handler. */
export interface Services {
  knex: Knex;
  databaseKind: DatabaseKind;
  config: TrackerConfig;
}
