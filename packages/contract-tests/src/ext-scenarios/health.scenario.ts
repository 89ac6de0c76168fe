import { expect } from "vitest";
import { databaseEngine } from "@tracker/testing";
import type { ExtScenario } from "../harness/ext-scenario.js";

export const scenario: ExtScenario = {
  name: "health probes answer liveness and readiness, without a token even when auth is on",
  async run({ kind, ext, unauthenticated, client }) {
    expect(await client.liveness()).toEqual({ status: "ok" });
    expect(await client.readiness()).toEqual({ status: "ok", database: databaseEngine(kind) });
    expect(await client.health()).toEqual({ status: "ok", database: databaseEngine(kind) });
    for (const path of ["/health", "/health/live", "/health/ready"] as const) {
      expect((await ext.GET(path)).response.status, path).toBe(200);
      // Probes need no token: the server started with TRACKER_AUTH_TOKEN answers them too.
      expect((await unauthenticated.GET(path)).response.status, `${path} with auth on`).toBe(200);
    }
  },
};
