#!/usr/bin/env node
import { Command, InvalidArgumentError } from "commander";
import { ConfigError, loadConfig, type TrackerConfig } from "./config/config.js";
import { openDatabase, startServer } from "./server.js";

function parsePortOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("must be an integer 0..65535");
  return port;
}

interface ServerFlags {
  host?: string;
  port?: number;
  backendStoreUri?: string;
  defaultArtifactRoot?: string;
  namespace?: string;
}

/** Flags win over environment variables; a folder path as backend store selects embedded PGlite. */
function configFromFlags(flags: ServerFlags): TrackerConfig {
  const overrides: Partial<TrackerConfig> = {};
  if (flags.host !== undefined) overrides.host = flags.host;
  if (flags.port !== undefined) overrides.port = flags.port;
  if (flags.namespace !== undefined) overrides.namespace = flags.namespace;
  if (flags.defaultArtifactRoot !== undefined) overrides.artifactRoot = flags.defaultArtifactRoot;
  if (flags.backendStoreUri !== undefined) {
    if (/^postgres(ql)?:\/\//.test(flags.backendStoreUri)) overrides.databaseUrl = flags.backendStoreUri;
    else overrides.dataDir = flags.backendStoreUri;
  }
  return loadConfig(process.env, overrides);
}

function fail(message: string): never {
  process.stderr.write(`tracker: ${message}\n`);
  process.exit(2);
}

const program = new Command("tracker").description("tracker: experiment tracking server and model registry").showHelpAfterError();
program.exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

const withServerFlags = (cmd: Command) =>
  cmd
    .option("--host <host>", "address to bind (env HOST)")
    .option("--port <port>", "port to listen on (env PORT)", parsePortOption)
    .option("--backend-store-uri <uri>", "postgresql:// URL, or a folder for the embedded database (env DATABASE_URL / TRACKER_DATA_DIR)")
    .option("--default-artifact-root <dir>", "root folder for artifacts (env TRACKER_ARTIFACT_ROOT)")
    .option("--namespace <name>", "path segment and system tag prefix (env TRACKER_NAMESPACE)");

withServerFlags(program.command("server").description("start the HTTP server")).action(async (flags: ServerFlags) => {
  let config: TrackerConfig;
  try {
    config = configFromFlags(flags);
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  let server;
  try {
    server = await startServer(config);
  } catch (err) {
    fail(`cannot start: ${err instanceof Error ? err.message : String(err)}`);
  }
  const shutdown = (signal: string) => {
    server.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
});

const db = program.command("db").description("database maintenance");
for (const name of ["migrate", "upgrade"]) {
  withServerFlags(db.command(name).description(name === "migrate" ? "apply pending migrations and exit" : "alias of migrate (MLflow's name)")).action(
    async (flags: ServerFlags) => {
      try {
        const database = await openDatabase(configFromFlags(flags));
        await database.close();
        process.stdout.write("database is up to date\n");
      } catch (err) {
        fail(`migration failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  );
}

await program.parseAsync(process.argv);
