import fs from "node:fs";
import path from "node:path";
import knexFactory from "knex";
import { afterEach, describe, expect, it } from "vitest";
import {
  backendStore,
  childProcesses,
  postgresBinDir,
  startCluster,
  startServerProcess,
  type ServerProcess,
} from "@tracker/testing";

/**
 * Issue 28, item 2: whatever the database does, every request is answered in bounded time. A table
 * lock held by another session (requests wait for it) and a frozen PostgreSQL (`kill -STOP` of the
 * postmaster and its backends: not even a statement timeout can fire) give 503
 * TEMPORARILY_UNAVAILABLE with Retry-After within the timeouts plus a margin, and the log names
 * the cause (statement timeout, pool-acquire timeout, no answer), never "unreachable" for a
 * database that is reachable. Short timeouts keep this to seconds: statement 1 s, connection 1 s,
 * readiness 0.5 s. On PostgreSQL (TEST_DATABASE_URL; the frozen one a cluster of its own, never the
 * shared server) and on the embedded PostgreSQL.
 */

const TIMEOUT_FLAGS = ["--statement-timeout", "1s", "--db-acquire-timeout", "1s", "--readiness-timeout", "500ms"];
/**
 * The longest the server itself may make a request wait on the database with TIMEOUT_FLAGS: a
 * pooled connection's wait (1 s), then a statement's no-answer limit (the 1 s statement timeout
 * plus db/connect.ts's noAnswerMargin, 1 s). Readiness has its own 0.5 s.
 */
const DATABASE_WAIT_MS = 3_000;
const READY_WAIT_MS = 500;

/**
 * What an answer costs on this machine at this moment besides waiting for the database: the
 * slowest answer of the same burst on the same server with the database free, just before. On an
 * idle machine that is tens of ms; with 2 cores shared by many test processes it was seconds, and
 * a fixed bound (the lock test's answers took 6.5 s under load) either fails there or is too loose
 * to show anything on an idle machine. Twice the calibration plus 1 s absorbs the load changing
 * between the two bursts; a request that waited for the lock or the frozen database (what issue
 * 28 saw) waits as long as they last, which the tests make far longer.
 */
function allowanceFor(calibration: Answer[]): number {
  return 2 * Math.max(...calibration.map((a) => a.ms)) + 1_000;
}

interface Answer {
  what: string;
  status: number | "no answer";
  ms: number;
  body: { error_code?: string; message?: string };
  retryAfter: string | null;
}

async function ask(base: string, what: string, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return {
      what,
      status: response.status,
      ms: Date.now() - started,
      body: text.startsWith("{") ? (JSON.parse(text) as Answer["body"]) : {},
      retryAfter: response.headers.get("retry-after"),
    };
  } catch {
    return { what, status: "no answer", ms: Date.now() - started, body: {}, retryAfter: null };
  }
}

/** An experiment and a run to write to, made while the database answers. */
async function prepare(base: string): Promise<string> {
  const experiment = await ask(base, "create", "POST", "/api/2.0/tracker/experiments/create", {
    name: `timeouts-${Date.now()}`,
  });
  expect(experiment.status).toBe(200);
  const response = await fetch(`${base}/api/2.0/tracker/runs/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ experiment_id: (experiment.body as { experiment_id?: string }).experiment_id }),
  });
  return ((await response.json()) as { run: { info: { run_id: string } } }).run.info.run_id;
}

const logMetric = (base: string, runId: string, step: number) =>
  ask(base, "runs/log-metric", "POST", "/api/2.0/tracker/runs/log-metric", {
    run_id: runId,
    key: "m",
    value: step,
    timestamp: 1_700_000_000_000,
    step,
  });

/** 20 metric writes, 5 run reads, 5 experiment reads and 5 readiness probes at once. */
function burst(base: string, runId: string): Promise<Answer[]> {
  const requests: Array<Promise<Answer>> = [];
  for (let i = 0; i < 20; i++) requests.push(logMetric(base, runId, i));
  for (let i = 0; i < 5; i++) {
    requests.push(ask(base, "runs/get", "GET", `/api/2.0/tracker/runs/get?run_id=${runId}`));
    requests.push(ask(base, "experiments/get", "GET", "/api/2.0/tracker/experiments/get?experiment_id=0"));
    requests.push(ask(base, "health/ready", "GET", "/health/ready"));
  }
  return Promise.all(requests);
}

/**
 * Each kind of request of the burst once, one after the other, all 200: the server serves. Not as
 * a burst: 35 requests at once on a loaded machine may rightly get 503 from the tests' short
 * timeouts (a readiness probe waiting 0.5 s for a connection, a write 1 s) with a healthy database.
 */
async function expectServing(base: string, runId: string): Promise<void> {
  const answers: Answer[] = [];
  answers.push(await logMetric(base, runId, 1000));
  answers.push(await ask(base, "runs/get", "GET", `/api/2.0/tracker/runs/get?run_id=${runId}`));
  answers.push(await ask(base, "experiments/get", "GET", "/api/2.0/tracker/experiments/get?experiment_id=0"));
  answers.push(await ask(base, "health/ready", "GET", "/health/ready"));
  expect(answers.filter((a) => a.status !== 200).map((a) => `${a.what} ${a.status} ${a.body.message}`)).toEqual([]);
}

/** A 503 TEMPORARILY_UNAVAILABLE with Retry-After, the answer the server gives when the database is late. */
const isTemporarilyUnavailable = (a: Answer): boolean =>
  a.status === 503 && a.body.error_code === "TEMPORARILY_UNAVAILABLE" && /^\d+$/.test(a.retryAfter ?? "");

/**
 * The burst that calibrates the bound (allowanceFor), on the free database. It also fills the
 * pool, as under load. Its answers are 200, or 503 where the loaded machine made a request wait
 * past the tests' short timeouts (which only widens the allowance).
 */
async function calibrate(base: string, runId: string): Promise<Answer[]> {
  const calibration = await burst(base, runId);
  expect(calibration.filter((a) => a.status !== 200 && !isTemporarilyUnavailable(a))).toEqual([]);
  expect(calibration.some((a) => a.status === 200)).toBe(true);
  return calibration;
}

/**
 * Every answer within the server's own limit on database waits plus what the machine's load adds
 * (allowanceFor); every one that is not 200 a 503 TEMPORARILY_UNAVAILABLE with Retry-After.
 */
function expectBounded(answers: Answer[], calibration: Answer[]): void {
  const allowance = allowanceFor(calibration);
  const late = answers.filter((a) => a.ms > (a.what === "health/ready" ? READY_WAIT_MS : DATABASE_WAIT_MS) + allowance);
  expect(late, `answers later than the bound (load allowance ${allowance} ms)`).toEqual([]);
  const wrong = answers.filter((a) => a.status !== 200 && !isTemporarilyUnavailable(a));
  expect(wrong, "answers other than 200 or 503 TEMPORARILY_UNAVAILABLE with Retry-After").toEqual([]);
}

/** The `databaseProblem` of every log record that has one. */
const problemsLogged = (server: ServerProcess): string[] =>
  server
    .output()
    .split("\n")
    .filter((line) => line.includes('"databaseProblem"'))
    .map((line) => (JSON.parse(line) as { databaseProblem: string }).databaseProblem);

/** A backend store to test on, with a URL an outside session can connect to and its postmaster's pid. */
interface Target {
  args: string[];
  env: NodeJS.ProcessEnv;
  adminUrl: string;
  postmasterPid(): number;
  dispose(): Promise<void>;
}

async function embeddedTarget(): Promise<Target> {
  const store = await backendStore("embedded-postgres");
  const socketDir = path.join(store.uri, "postgres-socket");
  return {
    args: ["--backend-store-uri", store.uri],
    env: store.env,
    adminUrl: `postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent(socketDir)}`,
    postmasterPid: () =>
      Number(fs.readFileSync(path.join(store.uri, "postgres", "postmaster.pid"), "utf8").split("\n")[0]),
    dispose: store.dispose,
  };
}

async function postgresTarget(): Promise<Target> {
  const store = await backendStore("postgres");
  return {
    args: ["--backend-store-uri", store.uri],
    env: store.env,
    adminUrl: store.uri,
    postmasterPid: () => {
      throw new Error("the shared PostgreSQL is never frozen");
    },
    dispose: store.dispose,
  };
}

async function clusterTarget(): Promise<Target> {
  const cluster = await startCluster();
  return {
    args: ["--backend-store-uri", cluster.url],
    env: {},
    adminUrl: cluster.url,
    postmasterPid: () => cluster.postmasterPid(),
    dispose: async () => cluster.destroy(),
  };
}

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
const lockTargets: Array<[string, () => Promise<Target>]> = [
  ...(hasPostgres ? ([["PostgreSQL", postgresTarget]] as Array<[string, () => Promise<Target>]>) : []),
  ["the embedded PostgreSQL", embeddedTarget],
];
const freezeTargets: Array<[string, () => Promise<Target>]> = [
  ...(postgresBinDir()
    ? ([["a PostgreSQL cluster of its own", clusterTarget]] as Array<[string, () => Promise<Target>]>)
    : []),
  ["the embedded PostgreSQL", embeddedTarget],
];

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function serve(target: Target): Promise<ServerProcess> {
  const server = await startServerProcess([...target.args, ...TIMEOUT_FLAGS], {
    env: { ...target.env, LOG_LEVEL: "info" },
  });
  cleanups.push(() => server.stop().then(() => undefined));
  return server;
}

describe.each(lockTargets)("a table lock held by another session, on %s", (_name, makeTarget) => {
  it("answers every request within the timeouts: 503 naming the statement or pool-acquire timeout", {
    timeout: 180_000,
  }, async () => {
    const target = await makeTarget();
    cleanups.push(() => target.dispose());
    const server = await serve(target);
    const runId = await prepare(server.url);
    const calibration = await calibrate(server.url, runId);
    const outside = knexFactory({ client: "pg", connection: target.adminUrl, pool: { min: 0, max: 1 } });
    const session = await outside.transaction();
    cleanups.push(async () => {
      // The lock's connection goes back to the pool only once its transaction has ended.
      if (!session.isCompleted()) await session.rollback();
      await outside.destroy();
    });
    await session.raw("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE");

    const answers = await burst(server.url, runId);
    expectBounded(answers, calibration);
    const writes = answers.filter((a) => a.what === "runs/log-metric");
    expect(writes.every((a) => a.status === 503)).toBe(true);
    const messages = new Set(writes.map((a) => a.body.message));
    expect(messages).toContain("The database did not finish in time (statement timeout); retry later");
    const logged = new Set(problemsLogged(server));
    expect(logged).toContain("statement timeout");
    expect([...logged].every((p) => ["statement timeout", "pool-acquire timeout", "no answer"].includes(p))).toBe(true);
    // The database was reachable all along.
    expect(server.output()).not.toContain("database unreachable");

    await session.rollback();
    await expectServing(server.url, runId);
  });
});

/** SIGSTOP (or SIGCONT) to a postmaster and every process it started. */
function signalCluster(postmaster: number, signal: NodeJS.Signals): void {
  const send = (pid: number) => {
    try {
      process.kill(pid, signal);
    } catch {
      // exited meanwhile
    }
  };
  // The postmaster first, then the children listed after it: a list taken before the postmaster
  // stopped missed a backend it forked meanwhile (the server's pool opening a connection), which
  // went on serving (CI: 35 log-metric writes answered 200 while the cluster was "stopped").
  send(postmaster);
  for (const pid of childProcesses(postmaster)) send(pid);
}

describe.each(freezeTargets)("a frozen database: %s", (_name, makeTarget) => {
  it("answers every request within the timeouts while PostgreSQL is stopped, and serves again after", {
    timeout: 180_000,
  }, async () => {
    const target = await makeTarget();
    cleanups.push(() => target.dispose());
    const server = await serve(target);
    const runId = await prepare(server.url);
    const calibration = await calibrate(server.url, runId);
    const postmaster = target.postmasterPid();
    // Registered first: PostgreSQL goes on whatever fails below (afterEach runs it before stopping the server).
    cleanups.push(() => signalCluster(postmaster, "SIGCONT"));
    signalCluster(postmaster, "SIGSTOP");

    const answers = await burst(server.url, runId);
    expectBounded(answers, calibration);
    expect(answers.filter((a) => a.status === 200)).toEqual([]);
    expect(answers.filter((a) => a.what === "health/ready").map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    const logged = new Set(problemsLogged(server));
    expect([...logged].some((p) => p === "no answer")).toBe(true);
    expect(server.alive()).toBe(true);
    // The embedded PostgreSQL is stopped, not dead: its supervisor leaves it alone.
    expect(server.output()).not.toContain("exited unexpectedly");

    signalCluster(postmaster, "SIGCONT");
    const deadline = Date.now() + 20_000;
    let ready = 0;
    while (ready !== 200 && Date.now() < deadline) {
      ready = (await ask(server.url, "ready", "GET", "/health/ready")).status as number;
      if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready).toBe(200);
    await expectServing(server.url, runId);
  });
});
