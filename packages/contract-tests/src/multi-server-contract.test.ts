import { describe } from "vitest";
import { GROUP_START_TIMEOUT_MS, startServerGroup } from "@tracker/testing";
import { extContractSuite } from "./harness/ext-contract-suite.js";
import { AUTH_TOKEN } from "./harness/servers.js";

/**
 * Several servers as one (issue 30): three `tracker server` processes over one PostgreSQL database
 * and one artifacts destination, started at once, and the ext.yaml contract scenarios sent
 * round-robin across them, each request to the next server, as a load balancer would: a write
 * through one server is read through the next at once, an upload through one is listed and
 * downloaded through another. A fourth process with a token serves the 401 scenarios. The artifacts
 * destination is a local folder shared by all, or below TEST_S3_URL when that is set.
 */

const SERVERS = 3;

describe.skipIf(!process.env.TEST_DATABASE_URL)("several servers as one", () => {
  extContractSuite(
    `contract: ext.yaml round-robin across ${SERVERS} servers on postgres`,
    "postgres",
    async () => {
      const env = { TRACKER_MAX_ARTIFACT_SIZE: "1MiB" };
      const group = await startServerGroup(SERVERS + 1, [env, env, env, { ...env, TRACKER_AUTH_TOKEN: AUTH_TOKEN }]);
      return {
        urls: group.servers.slice(0, SERVERS).map((s) => s.url),
        authUrl: group.servers[SERVERS]!.url,
        artifactsOnS3: Boolean(process.env.TEST_S3_URL),
        stop: group.stop,
      };
    },
    // Four server processes and the test share the machine's cores with whatever else runs: a
    // scenario takes up to twice as long as against one server (logged models: 34 s alone, over
    // 60 s beside another suite). A time budget only; nothing in the scenarios waits on a clock.
    { startMs: GROUP_START_TIMEOUT_MS, scenarioMs: 180_000 },
  );
});
