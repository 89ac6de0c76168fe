import { createRequire } from "node:module";
import { artifactServicePresigns } from "../../core/artifacts.js";
import { answerCompression } from "../compress.js";
import { handlerTable } from "../operation-handler.js";

/** tracker's own description of itself (spec/ext.yaml, getServerInfo). */

const { version } = createRequire(import.meta.url)("../../../package.json") as { version: string };

/**
 * The MLflow version `/version` answers, as MLflow's server does (plain text). MLflow's clients
 * read it to choose features: from 3.4 on, a client sends its traces' spans as OpenTelemetry to
 * `/v1/traces` (RestStore.log_spans), which tracker does not take. 3.3.2, the last release before
 * 3.4, keeps them off that path while claiming MLflow 3's REST API.
 */
export const MLFLOW_VERSION = "3.3.2";

export const serverInfoHandlers = handlerTable({
  getMlflowVersion: async ({ res }) => {
    res.status(200).type("text/plain");
    answerCompression(res);
    res.send(MLFLOW_VERSION);
    return undefined;
  },
  getServerInfo: async ({ services }) => ({
    name: "tracker",
    version,
    namespace: services.config.namespace,
    database: services.databaseKind,
    serve_artifacts: services.config.serveArtifacts,
  }),
  // MLflow 3's clients read these flags to choose between the proxied and the presigned artifact paths.
  getMlflowServerInfo: async ({ services }) => {
    const presigns = artifactServicePresigns(services.config);
    return {
      store_type: "SqlStore",
      workspaces_enabled: false,
      presigned_uploads_enabled: presigns,
      presigned_downloads_enabled: presigns,
    };
  },
});
