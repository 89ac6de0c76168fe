import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCalibrationServer } from "./calibration.js";
import { CALIBRATION_DB_SERVER, CALIBRATION_SERVER, REV_C_DOCUMENT } from "./paths.js";
import { postgresInstalled, startCluster, type Cluster } from "./postgres.js";
import { CALIBRATION_DB, CALIBRATION_STACK } from "./scenarios.js";

const send = async (url: string, n: number, scenario = CALIBRATION_DB, body?: string) => {
  const r = scenario.request(n);
  const res = await fetch(url + r.path, {
    method: r.method,
    body: body ?? r.body,
    headers: { "content-type": "application/json" },
  });
  return { status: res.status, body: await res.text() };
};

describe("calibration servers", () => {
  it('the bare route answers {"ok":1}', async () => {
    const server = await startCalibrationServer(CALIBRATION_SERVER, []);
    try {
      const res = await fetch(`${server.url}/ping`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('{"ok":1}');
    } finally {
      await server.stop();
    }
  });

  describe.skipIf(!postgresInstalled())("the database route", () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster();
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    it("inserts each request's own row with one prepared statement and answers {}", async () => {
      const server = await startCalibrationServer(CALIBRATION_DB_SERVER, [cluster.url]);
      try {
        // Concurrent requests, more than one pool connection: each prepares the named statement once.
        const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => send(server.url, n)));
        expect(answers).toEqual(Array(6).fill({ status: 200, body: "{}" }));
      } finally {
        await server.stop();
      }
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ step: number; value: number }>(
          "select step::int as step, value from calibration_points order by step",
        );
        expect(rows).toEqual([0, 1, 2, 3, 4, 5].map((n) => ({ step: n, value: 1 / (n + 1) })));
      } finally {
        await client.end();
      }
    });

    it("with revision C's document, checks each request with the validator before the INSERT", async () => {
      const server = await startCalibrationServer(CALIBRATION_DB_SERVER, [cluster.url, REV_C_DOCUMENT]);
      try {
        expect(await send(server.url, 100, CALIBRATION_STACK)).toEqual({ status: 200, body: "{}" });
        // A body the document rejects (no timestamp) never reaches the database.
        const bad = await send(
          server.url,
          101,
          CALIBRATION_STACK,
          JSON.stringify({ run_id: "calibration", key: "loss", value: 1 }),
        );
        expect(bad.status).toBe(400);
        expect(bad.body).toMatch(/timestamp/);
      } finally {
        await server.stop();
      }
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const { rows } = await client.query("select step::int as step from calibration_points where step >= 100");
        expect(rows).toEqual([{ step: 100 }]);
      } finally {
        await client.end();
      }
    });

    it("fails to start without a database", async () => {
      await expect(
        startCalibrationServer(CALIBRATION_DB_SERVER, ["postgres://nobody@127.0.0.1:1/none"]),
      ).rejects.toThrow(/exited with 1/);
    });
  });
});
