import http from "node:http";
import knexFactory from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  GROUP_START_TIMEOUT_MS,
  startServerGroup,
  trackingApi,
  type ServerGroup,
  type ServerProcess,
} from "@tracker/testing";

/**
 * Several `tracker server` processes over one PostgreSQL database and one artifacts destination
 * behave as one server (issue 30): they start at once over an empty database (migrations take
 * turns under an advisory lock), a write through one is read through another at once (no
 * per-process cache answers stale data), and stopping one under load loses no request that the
 * balancer had sent. The artifacts destination is one local folder, or below TEST_S3_URL when set.
 */

const SERVERS = 3;

describe.skipIf(!process.env.TEST_DATABASE_URL)("several servers over one PostgreSQL", () => {
  describe("started at once over an empty database, then read-after-write across them", () => {
    let group: ServerGroup;
    beforeAll(async () => {
      group = await startServerGroup(SERVERS);
    }, GROUP_START_TIMEOUT_MS);
    afterAll(async () => {
      await group?.stop();
    });

    it("all start, and the schema is migrated once", async () => {
      for (const server of group.servers) expect((await call(server.url, "GET", "/health/ready")).status).toBe(200);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = new URL(group.databaseUrl).pathname;
      const db = knexFactory({ client: "pg", connection: url.toString(), pool: { min: 0, max: 1 } });
      try {
        const rows = (await db.raw("SELECT name, count(*)::int AS n FROM knex_migrations GROUP BY name")).rows as {
          n: number;
        }[];
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.filter((r) => r.n !== 1)).toEqual([]);
        expect((await db.raw("SELECT is_locked FROM knex_migrations_lock")).rows).toEqual([{ is_locked: 0 }]);
      } finally {
        await db.destroy();
      }
    });

    it("reads through one server what another wrote a moment before", async () => {
      const [a, b, c] = group.servers.map((s) => trackingApi(s.url)) as [
        ReturnType<typeof trackingApi>,
        ReturnType<typeof trackingApi>,
        ReturnType<typeof trackingApi>,
      ];
      const created = await a.post("experiments/create", { name: "read-after-write" });
      expect(created.status).toBe(200);
      const experiment_id = created.body.experiment_id;
      expect((await b.get("experiments/get", { experiment_id })).body).toMatchObject({
        experiment: { name: "read-after-write" },
      });
      const run = await b.post("runs/create", { experiment_id });
      const run_id = (run.body as { run: { info: { run_id: string } } }).run.info.run_id;
      expect((await c.post("runs/log-metric", { run_id, key: "m", value: 1, timestamp: 1, step: 0 })).status).toBe(200);
      expect((await a.get("metrics/get-history", { run_id, metric_key: "m" })).body).toMatchObject({
        metrics: [{ key: "m", value: 1 }],
      });
      expect((await c.post("experiments/update", { experiment_id, new_name: "renamed" })).status).toBe(200);
      expect((await b.get("experiments/get-by-name", { experiment_name: "renamed" })).status).toBe(200);

      // An upload through one server, listed through the next and downloaded through the third.
      const artifact = (base: string) =>
        `${base}/api/2.0/mlflow-artifacts/artifacts/${experiment_id}/${run_id}/artifacts/f.txt`;
      const [sa, sb, sc] = group.servers as [ServerProcess, ServerProcess, ServerProcess];
      expect((await fetch(artifact(sa.url), { method: "PUT", body: "one" })).status).toBe(200);
      expect(await (await fetch(artifact(sc.url))).text()).toBe("one");
      expect((await b.get("artifacts/list", { run_id })).body).toMatchObject({ files: [{ path: "f.txt" }] });

      // A run deleted through one server refuses uploads through another at once (the server that
      // took the last upload once remembered the run as active for 2 s).
      expect((await fetch(artifact(sb.url), { method: "PUT", body: "two" })).status).toBe(200);
      expect((await a.post("runs/delete", { run_id })).status).toBe(200);
      const refused = await fetch(artifact(sb.url), { method: "PUT", body: "three" });
      expect(refused.status, await refused.text()).toBe(400);
      expect((await c.get("runs/get", { run_id })).body).toMatchObject({
        run: { info: { lifecycle_stage: "deleted" } },
      });
    });
  });

  it(
    "loses no request when one server is stopped under load behind a balancer",
    async () => {
      // The stopped server keeps serving for a while with readiness 503, as behind a real balancer.
      // A readiness timeout far above any database stall on a busy machine: only the stopped
      // server may leave the rotation.
      const group = await startServerGroup(SERVERS, [
        { TRACKER_SHUTDOWN_DELAY: "5s", TRACKER_READINESS_TIMEOUT: "60s" },
      ]);
      try {
        const api = trackingApi(group.servers[0]!.url);
        const experiment_id = (await api.post("experiments/create", { name: "under-load" })).body.experiment_id;
        const run = await api.post("runs/create", { experiment_id });
        const run_id = (run.body as { run: { info: { run_id: string } } }).run.info.run_id;
        const balancer = new Balancer(group.servers.map((s) => s.port));
        const stopped = group.servers[1]!;
        let step = 0;
        const failures: string[] = [];
        let answered = 0;
        let running = true;
        const worker = async () => {
          while (running) {
            const body = JSON.stringify({ run_id, key: "load", value: 1, timestamp: 1, step: step++ });
            const answer = await balancer.post("/api/2.0/tracker/runs/log-metric", body);
            if (answer.status === 200) answered++;
            else failures.push(`${answer.status} ${answer.text}`);
          }
        };
        const workers = Array.from({ length: 6 }, worker);
        const polling = balancer.watchReadiness();
        // Some load on all three, then SIGTERM to one while requests keep coming.
        while (answered < 60) await new Promise((r) => setTimeout(r, 20));
        stopped.child.kill("SIGTERM");
        const exit = await stopped.exited;
        const afterExit = answered;
        while (answered < afterExit + 60) await new Promise((r) => setTimeout(r, 20));
        running = false;
        await Promise.all(workers);
        balancer.stop();
        await polling;
        expect(failures).toEqual([]);
        expect(exit).toEqual({ code: 0, signal: null });
        expect(balancer.out).toEqual([stopped.port]);
        // Every answered request's point is stored, once.
        const history = await call<{ metrics: unknown[] }>(
          group.servers[0]!.url,
          "GET",
          "/api/2.0/tracker/metrics/get-history",
          {
            run_id,
            metric_key: "load",
            max_results: 100_000,
          },
        );
        expect(history.body.metrics).toHaveLength(answered);
      } finally {
        await group.stop();
      }
    },
    2 * GROUP_START_TIMEOUT_MS,
  );
});

interface Answer {
  status: number;
  text: string;
}

/**
 * A round-robin load balancer in miniature, as nginx or an ALB behaves: keep-alive connections to
 * each server, a readiness check every 50 ms that takes a server answering 503 (or not at all) out
 * of rotation, and a request whose connection was refused (nothing sent) tried on the next
 * server. A request that reached a server is never sent twice: its failure is the test's failure.
 */
class Balancer {
  readonly out: number[] = [];
  private next = 0;
  private watching = true;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

  constructor(private readonly ports: number[]) {}

  private inRotation(): number[] {
    return this.ports.filter((p) => !this.out.includes(p));
  }

  private takeOut(port: number): void {
    if (!this.out.includes(port)) this.out.push(port);
  }

  async post(path: string, body: string): Promise<Answer> {
    for (let attempt = 0; attempt < this.ports.length; attempt++) {
      const ports = this.inRotation();
      if (ports.length === 0) return { status: 0, text: "no server in rotation" };
      const port = ports[this.next++ % ports.length]!;
      try {
        return await this.send(port, path, body);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ECONNREFUSED") {
          return { status: 0, text: `${port}: ${(err as Error).message}` };
        }
        this.takeOut(port);
      }
    }
    return { status: 0, text: "every server refused the connection" };
  }

  private send(port: number, path: string, body: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          agent: this.agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (text += d));
          res.on("end", () => {
            // A draining server closes every connection after its answer: leave it, as its readiness will say.
            if (res.headers.connection === "close") this.takeOut(port);
            resolve({ status: res.statusCode ?? 0, text });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Checks every server's /health/ready until stop(), on connections of its own. */
  async watchReadiness(): Promise<void> {
    while (this.watching) {
      await Promise.all(
        this.inRotation().map(async (port) => {
          const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (r) => r.status,
            () => 0,
          );
          if (ready !== 200) this.takeOut(port);
        }),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): void {
    this.watching = false;
    this.agent.destroy();
  }
}
