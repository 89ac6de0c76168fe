import { expect } from "vitest";
import { databaseEngine } from "@tracker/testing";
import type { ExtScenario } from "../harness/ext-scenario.js";

export const scenario: ExtScenario = {
  name: "server-info describes the server (and needs the token when auth is on)",
  async run({ kind, ext, unauthenticated, client }) {
    const info = await client.serverInfo();
    expect(info).toMatchObject({ name: "tracker", namespace: "tracker", database: databaseEngine(kind) });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    const raw = await ext.GET("/api/2.0/tracker/server-info");
    expect(raw.response.status).toBe(200);
    const denied = await unauthenticated.GET("/api/2.0/tracker/server-info");
    expect(denied.response.status).toBe(401);
    expect(denied.error).toMatchObject({ error_code: "UNAUTHENTICATED" });
  },
};
