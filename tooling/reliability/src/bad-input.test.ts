import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  changedTables,
  errorAnswerProblems,
  sendRaw,
  snapshotDatabase,
  testDatabases,
  type Snapshot,
  useTestServer,
} from "@tracker/testing";
import { buildRequest, requestPlans, type BuiltRequest, type Fixtures } from "./bad-requests.js";
import { allOperations, type Operation } from "./spec-operations.js";

/**
 * Property test: bad input on every operation of every revision, generated from the bundled spec
 * documents (see bad-requests.ts for what is generated). For every request:
 * - the answer is never 5xx; a request that breaks the spec is answered 4xx;
 * - every 4xx carries exactly the error body, its code matches the status, and the message shows no
 *   stack frame, source path, SQL or database message;
 * - after a 4xx the database is unchanged (row count and content digest of every table);
 * and after each operation's run the server still answers /health.
 *
 * TRACKER_FUZZ_RUNS sets the runs per operation (default 15), TRACKER_FUZZ_SEED a fixed seed.
 */

const RUNS = Number(process.env.TRACKER_FUZZ_RUNS ?? 15);
const SEED = process.env.TRACKER_FUZZ_SEED === undefined ? undefined : Number(process.env.TRACKER_FUZZ_SEED);
const operations = allOperations();

// One server (and database) per revision and database kind: it bounds the state a run builds up.
// (PGlite 0.5 can spin forever inside a COMMIT after some thousands of writes to one instance,
// which in-process blocks the test worker itself; see the report of issue 10.)
const cases = testDatabases().flatMap((kind) => (["a", "b", "c"] as const).map((revision) => ({ kind, revision })));

describe.each(cases)("bad input on every operation of revision $revision ($kind)", ({ kind, revision }) => {
  const suite = useTestServer(kind);
  let fixtures: Fixtures | undefined;
  let counter = 0;
  let snapshot: Snapshot;
  const stats = { requests: 0, rejected: 0, accepted: 0 };

  const fresh = () => `fuzz-${kind}-${revision}-${++counter}`;

  /** An experiment with a run (metric, param, tag logged) and a registered model with version 1. */
  async function makeFixtures(): Promise<Fixtures> {
    const c = (p: string) => `/api/2.0/tracker/${p}`;
    const r = (p: string) => `/api/2.0/preview/tracker/${p}`;
    const experimentName = fresh();
    const exp = await call<{ experiment_id: string }>(suite.url, "POST", c("experiments/create"), {
      name: experimentName,
    });
    const run = await call<{ run: { info: { run_id: string } } }>(suite.url, "POST", c("runs/create"), {
      experiment_id: exp.body.experiment_id,
    });
    const runId = run.body.run.info.run_id;
    await call(suite.url, "POST", c("runs/log-batch"), {
      run_id: runId,
      metrics: [{ key: "m1", value: 1, timestamp: 1, step: 0 }],
      params: [{ key: "p1", value: "v1" }],
      tags: [{ key: "k1", value: "v1" }],
    });
    const modelName = fresh();
    await call(suite.url, "POST", r("registered-models/create"), { name: modelName });
    const mv = await call<{ model_version: { version: string } }>(suite.url, "POST", r("model-versions/create"), {
      name: modelName,
      source: "s3://bucket/model",
      run_id: runId,
    });
    expect(mv.status, JSON.stringify(mv.body)).toBe(200);
    return {
      experimentId: Number(exp.body.experiment_id),
      experimentName,
      runId,
      modelName,
      version: mv.body.model_version.version,
      fresh,
    };
  }

  afterAll(async () => {
    console.info(
      `bad input, revision ${revision.toUpperCase()} (${kind}): ${stats.requests} requests, ${stats.rejected} answered 4xx, ${stats.accepted} accepted`,
    );
  });

  const describeRequest = (req: BuiltRequest) => {
    const body =
      req.body === undefined ? "" : typeof req.body === "string" ? req.body : Buffer.from(req.body).toString("latin1");
    return `${req.method} ${req.path}${req.query ? `?${req.query.slice(0, 300)}` : ""} ${JSON.stringify(req.headers)} ${body.slice(0, 400)}${body.length > 400 ? "..." : ""}\n  mutations: ${req.labels.join(" | ")}`;
  };

  it.each(
    operations
      .filter((op) => op.revision === revision)
      .map((op) => [`${op.revision.toUpperCase()} ${op.method} ${op.path} (${op.operationId})`, op] as const),
  )("%s", async (_title, op: Operation) => {
    fixtures = undefined;
    await fc.assert(
      fc.asyncProperty(requestPlans(op), async (plan) => {
        if (!fixtures) {
          fixtures = await makeFixtures();
          snapshot = await snapshotDatabase(suite.server.database.knex);
        }
        const req = buildRequest(op, plan, fixtures);
        stats.requests++;
        let answer: Awaited<ReturnType<typeof sendRaw>>;
        try {
          answer = await sendRaw(
            suite.url,
            req.method,
            `${req.path}${req.query ? `?${req.query}` : ""}`,
            req.body,
            req.headers,
          );
        } catch (err) {
          throw new Error(`no answer (${(err as Error).message}) to ${describeRequest(req)}`);
        }
        const after = await snapshotDatabase(suite.server.database.knex);
        const changed = changedTables(snapshot, after);
        snapshot = after;
        if (answer.status >= 500)
          throw new Error(`answered ${answer.status} ${answer.text.slice(0, 300)} to ${describeRequest(req)}`);
        if (answer.status < 400) {
          if (req.mustReject)
            throw new Error(`accepted (${answer.status} ${answer.text.slice(0, 200)}) ${describeRequest(req)}`);
          stats.accepted++;
          // The request changed resources the next bases refer to: make new ones.
          if (req.method !== "GET") fixtures = undefined;
          return;
        }
        stats.rejected++;
        const problems = errorAnswerProblems(answer, req.sentStrings);
        if (problems.length > 0) throw new Error(`${problems.join("; ")}\n  for ${describeRequest(req)}`);
        if (changed.length > 0)
          throw new Error(`answered ${answer.status} but changed ${changed.join(", ")}: ${describeRequest(req)}`);
      }),
      {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
        // Our own short report: the generated values can be megabytes long.
        reporter: (details) => {
          if (!details.failed) return;
          const cause =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(`after ${details.numRuns} runs (reproduce with TRACKER_FUZZ_SEED=${details.seed}): ${cause}`);
        },
      },
    );
    const health = await call(suite.url, "GET", "/health");
    expect(health.status).toBe(200);
  });
});
