import { createRequire } from "node:module";
import { handlerTable } from "../operation-handler.js";

/** tracker's own description of itself (spec/ext.yaml, getServerInfo). */

const { version } = createRequire(import.meta.url)("../../../package.json") as { version: string };

export const serverInfoHandlers = handlerTable({
  getServerInfo: async ({ services }) => ({
    name: "tracker",
    version,
    namespace: services.config.namespace,
    database: services.databaseKind,
    serve_artifacts: services.config.serveArtifacts,
  }),
});
