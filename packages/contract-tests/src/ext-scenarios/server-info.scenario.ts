import { expect } from "vitest";
import { databaseEngine } from "@tracker/testing";
import type { ExtScenario } from "../harness/ext-scenario.js";

const MLFLOW_SERVER_INFO = "/api/3.0/mlflow/server-info";

export const scenario: ExtScenario = {
  name: "server-info describes the server, and MLflow 3's server-info flags presigned transfers on S3 only (both need the token when auth is on)",
  async run({ kind, ext, unauthenticated, client, folderUrl, s3Url, fetch }) {
    const info = await client.serverInfo();
    expect(info).toMatchObject({ name: "tracker", namespace: "tracker", database: databaseEngine(kind) });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    const raw = await ext.GET("/api/2.0/tracker/server-info");
    expect(raw.response.status).toBe(200);
    const denied = await unauthenticated.GET("/api/2.0/tracker/server-info");
    expect(denied.response.status).toBe(401);
    expect(denied.error).toMatchObject({ error_code: "UNAUTHENTICATED" });

    // MLflow 3's clients take the presigned artifact paths when these say so (and no variable overrides them).
    const flags = async (base: string) => (await fetch(`${base}${MLFLOW_SERVER_INFO}`)).json();
    const common = { store_type: "SqlStore", workspaces_enabled: false };
    if (folderUrl)
      expect(await flags(folderUrl)).toEqual({
        ...common,
        presigned_uploads_enabled: false,
        presigned_downloads_enabled: false,
      });
    if (s3Url)
      expect(await flags(s3Url)).toEqual({
        ...common,
        presigned_uploads_enabled: true,
        presigned_downloads_enabled: true,
      });
    const typed = await ext.GET(MLFLOW_SERVER_INFO);
    expect(typed.response.status).toBe(200);
    expect(typeof typed.data?.presigned_uploads_enabled).toBe("boolean");
    expect((await unauthenticated.GET(MLFLOW_SERVER_INFO)).response.status).toBe(401);
  },
};
