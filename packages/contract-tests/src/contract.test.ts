import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient as createClientA } from "@tracker-ml/client/rev-a";
import { createClient as createClientB } from "@tracker-ml/client/rev-b";
import { createClient as createClientC } from "@tracker-ml/client/rev-c";
import { serverProcessDatabases } from "@tracker/testing";
import type { Revision } from "@tracker/spec";
import { coverage, coverageTable } from "./harness/coverage.js";
import { Recorder } from "./harness/recorder.js";
import { RequestBuilder, type BuiltRequest } from "./harness/request-builder.js";
import { AUTH_TOKEN, startContractServer, type ContractServer } from "./harness/servers.js";

/**
 * The contract: the published client (packages/client) against the real server process, every
 * answer validated against the revision's OpenAPI file by Ajv (not the server's validator), and
 * every operation of every revision exercised with a success and each documented client error.
 */

type Sendable = Record<
  string,
  (path: never, init: never) => Promise<{ data?: unknown; error?: unknown; response: Response }>
>;

async function send(client: unknown, req: BuiltRequest) {
  const fn = (client as Sendable)[req.method.toUpperCase()];
  return fn(req.path as never, { params: { query: req.query }, body: req.body } as never);
}

const ok = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
  expect(result.response.status, JSON.stringify(result.error)).toBe(200);
  return result.data as T;
};

describe.each(serverProcessDatabases())("contract: client x server x spec on %s", (kind) => {
  const recorder = new Recorder();
  let server: ContractServer;
  let authServer: ContractServer;
  const clients = () => ({
    a: createClientA({ baseUrl: server.url, fetch: recorder.fetchFor("a"), retry: false }),
    b: createClientB({ baseUrl: server.url, fetch: recorder.fetchFor("b"), retry: false }),
    c: createClientC({ baseUrl: server.url, fetch: recorder.fetchFor("c"), retry: false }),
  });
  let a: ReturnType<typeof clients>["a"];
  let b: ReturnType<typeof clients>["b"];
  let c: ReturnType<typeof clients>["c"];

  beforeAll(async () => {
    // Revisions A-C list and serve a run's local artifact folder, which the tests fill directly.
    [server, authServer] = await Promise.all([
      startContractServer(kind, {}, true),
      startContractServer(kind, { TRACKER_AUTH_TOKEN: AUTH_TOKEN }, true),
    ]);
    ({ a, b, c } = clients());
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), authServer?.stop()]);
  });

  it("revision C tracking: every operation succeeds", async () => {
    const { experiment_id } = ok(
      await c.POST("/2.0/tracker/experiments/create", {
        body: { name: `c-${kind}`, tags: [{ key: "k", value: "v" }] },
      }),
    );
    ok(await c.GET("/2.0/tracker/experiments/list", { params: { query: { max_results: 10 } } }));
    ok(await c.POST("/2.0/tracker/experiments/search", { body: { filter: `name = 'c-${kind}'`, max_results: 10 } }));
    ok(await c.GET("/2.0/tracker/experiments/get", { params: { query: { experiment_id } } }));
    ok(await c.GET("/2.0/tracker/experiments/get-by-name", { params: { query: { experiment_name: `c-${kind}` } } }));
    ok(await c.POST("/2.0/tracker/experiments/update", { body: { experiment_id, new_name: `c2-${kind}` } }));
    ok(
      await c.POST("/2.0/tracker/experiments/set-experiment-tag", { body: { experiment_id, key: "k2", value: "v2" } }),
    );
    const { run } = ok(
      await c.POST("/2.0/tracker/runs/create", { body: { experiment_id, run_name: "r", start_time: 1700000000000 } }),
    );
    const run_id = run!.info.run_id;
    ok(await c.POST("/2.0/tracker/runs/log-metric", { body: { run_id, key: "m", value: 0.5, timestamp: 1, step: 0 } }));
    ok(await c.POST("/2.0/tracker/runs/log-parameter", { body: { run_id, key: "p", value: "1" } }));
    ok(await c.POST("/2.0/tracker/runs/set-tag", { body: { run_id, key: "t", value: "1" } }));
    ok(await c.POST("/2.0/tracker/runs/delete-tag", { body: { run_id, key: "t" } }));
    ok(
      await c.POST("/2.0/tracker/runs/log-batch", {
        body: {
          run_id,
          metrics: [{ key: "m", value: "NaN", timestamp: 2, step: 1 }],
          params: [{ key: "q", value: "2" }],
          tags: [{ key: "u", value: "3" }],
        },
      }),
    );
    ok(
      await c.POST("/2.0/tracker/runs/log-model", {
        body: {
          run_id,
          model_json: JSON.stringify({ artifact_path: "m", flavors: {}, utc_time_created: "now", run_id }),
        },
      }),
    );
    ok(await c.GET("/2.0/tracker/runs/get", { params: { query: { run_id } } }));
    ok(await c.POST("/2.0/tracker/runs/update", { body: { run_id, status: "FINISHED", end_time: 1700000000001 } }));
    ok(
      await c.POST("/2.0/tracker/runs/search", {
        body: { experiment_ids: [experiment_id], filter: "metrics.m >= 0", order_by: ["metrics.m DESC"] },
      }),
    );
    const history = ok(
      await c.GET("/2.0/tracker/metrics/get-history", { params: { query: { run_id, metric_key: "m" } } }),
    );
    expect(history.metrics).toHaveLength(2);
    fs.mkdirSync(run!.info.artifact_uri, { recursive: true });
    fs.writeFileSync(path.join(run!.info.artifact_uri, "file.txt"), "hello");
    const listed = ok(await c.GET("/2.0/tracker/artifacts/list", { params: { query: { run_id } } }));
    expect(listed.files).toEqual([{ path: "file.txt", is_dir: false, file_size: 5 }]);
    ok(await c.POST("/2.0/tracker/runs/delete", { body: { run_id } }));
    ok(await c.POST("/2.0/tracker/runs/restore", { body: { run_id } }));
    ok(await c.POST("/2.0/tracker/experiments/delete", { body: { experiment_id } }));
    ok(await c.POST("/2.0/tracker/experiments/restore", { body: { experiment_id } }));
  });

  it("revision C registry: every operation succeeds", async () => {
    const name = `model-${kind}`;
    const P = "/2.0/preview/tracker";
    ok(
      await c.POST(`${P}/registered-models/create`, {
        body: { name, description: "d", tags: [{ key: "k", value: "v" }] },
      }),
    );
    ok(await c.GET(`${P}/registered-models/get`, { params: { query: { name } } }));
    ok(await c.PATCH(`${P}/registered-models/update`, { body: { name, description: "d2" } }));
    ok(await c.POST(`${P}/registered-models/set-tag`, { body: { name, key: "k2", value: "v2" } }));
    ok(await c.DELETE(`${P}/registered-models/delete-tag`, { body: { name, key: "k2" } }));
    ok(await c.GET(`${P}/registered-models/list`, { params: { query: { max_results: 10 } } }));
    ok(
      await c.GET(`${P}/registered-models/search`, {
        params: { query: { filter: `name LIKE '${name}'`, order_by: ["name ASC"] } },
      }),
    );
    // Tag filters, as MLflow 3's clients add them (`tracker.*` names the stored `mlflow.*` on this path).
    const tagged = ok(
      await c.GET(`${P}/registered-models/search`, {
        params: {
          query: { filter: `name LIKE '${name}' AND tags.k = 'v' AND tag.\`tracker.prompt.is_prompt\` != 'true'` },
        },
      }),
    );
    expect(tagged.registered_models?.map((m) => m.name)).toEqual([name]);
    const { model_version } = ok(
      await c.POST(`${P}/model-versions/create`, {
        body: { name, source: "/tmp/m", tags: [{ key: "a", value: "b" }] },
      }),
    );
    const version = model_version!.version;
    ok(await c.GET(`${P}/model-versions/get`, { params: { query: { name, version } } }));
    ok(await c.PATCH(`${P}/model-versions/update`, { body: { name, version, description: "v" } }));
    ok(await c.POST(`${P}/model-versions/set-tag`, { body: { name, version, key: "k", value: "v" } }));
    ok(await c.DELETE(`${P}/model-versions/delete-tag`, { body: { name, version, key: "k" } }));
    ok(await c.GET(`${P}/model-versions/search`, { params: { query: { filter: `name='${name}'` } } }));
    const taggedVersions = ok(
      await c.GET(`${P}/model-versions/search`, { params: { query: { filter: `name='${name}' AND tags.a = 'b'` } } }),
    );
    expect(taggedVersions.model_versions?.map((v) => v.version)).toEqual([version]);
    ok(await c.GET(`${P}/model-versions/get-download-uri`, { params: { query: { name, version } } }));
    ok(
      await c.POST(`${P}/model-versions/transition-stage`, {
        body: { name, version, stage: "staging", archive_existing_versions: true },
      }),
    );
    const latest = ok(
      await c.POST("/2.0/tracker/registered-models/get-latest-versions", { body: { name, stages: ["Staging"] } }),
    );
    expect(latest.model_versions?.map((v) => v.current_stage)).toEqual(["Staging"]);
    ok(await c.POST(`${P}/registered-models/rename`, { body: { name, new_name: `${name}-2` } }));
    ok(await c.DELETE(`${P}/model-versions/delete`, { body: { name: `${name}-2`, version } }));
    ok(await c.DELETE(`${P}/registered-models/delete`, { body: { name: `${name}-2` } }));
  });

  it("revision B: every operation succeeds", async () => {
    const P = "/2.0/preview/tracker";
    const { experiment_id } = ok(await b.POST(`${P}/experiments/create`, { body: { name: `b-${kind}` } }));
    ok(await b.GET(`${P}/experiments/list`, { params: { query: { view_type: "ALL" } } }));
    ok(await b.GET(`${P}/experiments/get`, { params: { query: { experiment_id: experiment_id! } } }));
    const { run } = ok(
      await b.POST(`${P}/runs/create`, { body: { experiment_id, source_type: "LOCAL", source_name: "s", tags: [] } }),
    );
    const run_uuid = run!.info.run_uuid;
    ok(await b.POST(`${P}/runs/log-metric`, { body: { run_uuid, key: "m", value: 1.5, timestamp: 1 } }));
    ok(await b.POST(`${P}/runs/log-parameter`, { body: { run_uuid, key: "p", value: "1" } }));
    ok(await b.POST(`${P}/runs/set-tag`, { body: { run_uuid, key: "t", value: "1" } }));
    ok(await b.GET(`${P}/runs/get`, { params: { query: { run_uuid } } }));
    ok(await b.GET(`${P}/metrics/get`, { params: { query: { run_uuid, metric_key: "m" } } }));
    ok(await b.GET(`${P}/metrics/get-history`, { params: { query: { run_uuid, metric_key: "m" } } }));
    ok(await b.GET(`${P}/params/get`, { params: { query: { run_uuid, param_name: "p" } } }));
    ok(await b.GET(`${P}/artifacts/list`, { params: { query: { run_uuid } } }));
    ok(await b.POST(`${P}/runs/update`, { body: { run_uuid, status: "KILLED" } }));
    ok(
      await b.POST(`${P}/runs/search`, {
        body: {
          experiment_ids: [experiment_id!],
          anded_expressions: [{ metric: { key: "m", double: { comparator: ">", value: 1 } } }],
          run_view_type: "ACTIVE_ONLY",
        },
      }),
    );
    ok(await b.POST(`${P}/runs/delete`, { body: { run_id: run_uuid } }));
    ok(await b.POST(`${P}/runs/restore`, { body: { run_id: run_uuid } }));
    ok(await b.POST(`${P}/experiments/delete`, { body: { experiment_id } }));
    ok(await b.POST(`${P}/experiments/restore`, { body: { experiment_id } }));
  });

  it("revision A: every operation succeeds, artifacts/get streams the file", async () => {
    const P = "/2.0/preview/tracker";
    const { experiment_id } = ok(await a.POST(`${P}/experiments/create`, { body: { name: `a-${kind}` } }));
    ok(await a.GET(`${P}/experiments/list`));
    const { run } = ok(
      await a.POST(`${P}/runs/create`, { body: { experiment_id, user_id: "u", source_type: "NOTEBOOK" } }),
    );
    const run_uuid = run!.info.run_uuid;
    ok(await a.POST(`${P}/runs/log-metric`, { body: { run_uuid, key: "m", value: 2, timestamp: 1 } }));
    ok(await a.POST(`${P}/runs/log-parameter`, { body: { run_uuid, key: "p", value: "x" } }));
    ok(await a.GET(`${P}/runs/get`, { params: { query: { run_uuid } } }));
    ok(await a.GET(`${P}/metrics/get`, { params: { query: { run_uuid, metric_key: "m" } } }));
    ok(await a.GET(`${P}/metrics/get-history`, { params: { query: { run_uuid, metric_key: "m" } } }));
    ok(await a.GET(`${P}/params/get`, { params: { query: { run_uuid, param_name: "p" } } }));
    ok(await a.POST(`${P}/runs/update`, { body: { run_uuid, status: "FINISHED" } }));
    ok(
      await a.POST(`${P}/runs/search`, {
        body: {
          experiment_ids: [experiment_id!],
          anded_expressions: [{ parameter: { key: "p", string: { comparator: "==", value: "x" } } }],
        },
      }),
    );
    ok(await a.GET(`${P}/experiments/get`, { params: { query: { experiment_id: experiment_id! } } }));
    fs.mkdirSync(run!.info.artifact_uri, { recursive: true });
    fs.writeFileSync(path.join(run!.info.artifact_uri, "notes.txt"), "streamed");
    ok(await a.GET(`${P}/artifacts/list`, { params: { query: { run_uuid } } }));
    const file = await a.GET(`${P}/artifacts/get`, {
      params: { query: { run_uuid, path: "notes.txt" } },
      parseAs: "text",
    });
    expect(file.response.status).toBe(200);
    expect(file.data).toBe("streamed");
  });

  it("data written through one revision reads the same through the others", async () => {
    const { experiment_id } = ok(
      await a.POST("/2.0/preview/tracker/experiments/create", { body: { name: `cross-${kind}` } }),
    );
    const { run } = ok(
      await a.POST("/2.0/preview/tracker/runs/create", { body: { experiment_id, source_name: "train.py" } }),
    );
    const runId = run!.info.run_uuid;
    for (const [value, timestamp] of [
      [3, 300],
      [1, 100],
    ] as const)
      ok(
        await a.POST("/2.0/preview/tracker/runs/log-metric", { body: { run_uuid: runId, key: "m", value, timestamp } }),
      );
    const viaC = ok(await c.GET("/2.0/tracker/runs/get", { params: { query: { run_id: runId } } }));
    expect(viaC.run!.info.experiment_id).toBe(String(experiment_id));
    expect(viaC.run!.data!.metrics).toEqual([{ key: "m", value: 3, timestamp: 300, step: 0 }]);
    expect(viaC.run!.data!.tags).toContainEqual({ key: "tracker.source.name", value: "train.py" });
    const viaB = ok(await b.GET("/2.0/preview/tracker/runs/get", { params: { query: { run_uuid: runId } } }));
    expect(viaB.run!.data!.metrics).toEqual([{ key: "m", value: 1, timestamp: 100 }]);
    const { experiment_id: cId } = ok(
      await c.POST("/2.0/tracker/experiments/create", { body: { name: `from-c-${kind}` } }),
    );
    const listedA = ok(await a.GET("/2.0/preview/tracker/experiments/list"));
    expect(listedA.experiments?.some((e) => e.experiment_id === Number(cId))).toBe(true);
    const gotB = ok(
      await b.GET("/2.0/preview/tracker/experiments/get", { params: { query: { experiment_id: Number(cId) } } }),
    );
    expect(gotB.experiment?.name).toBe(`from-c-${kind}`);
  });

  it("every documented client error of every operation answers as documented", async () => {
    for (const revision of ["a", "b", "c"] as Revision[]) {
      const builder = new RequestBuilder(revision);
      const client = clients()[revision];
      const unauthenticated = { a: createClientA, b: createClientB, c: createClientC }[revision]({
        baseUrl: authServer.url,
        fetch: recorder.fetchFor(revision),
        retry: false,
      });
      for (const op of recorder.validators[revision].operations()) {
        const where = `${revision.toUpperCase()} ${op.operationId}`;
        if (op.statuses.includes("400")) {
          const res = await send(client, builder.invalid(op.method, op.path));
          expect(res.response.status, `${where} 400`).toBe(400);
        }
        if (op.statuses.includes("404")) {
          const res = await send(client, builder.missingResource(op.method, op.path));
          expect(res.response.status, `${where} 404 ${JSON.stringify(res.error)}`).toBe(404);
        }
        if (op.statuses.includes("413")) {
          const res = await send(client, builder.oversized(op.method, op.path));
          expect(res.response.status, `${where} 413`).toBe(413);
        }
        if (op.statuses.includes("401")) {
          const res = await send(unauthenticated, builder.missingResource(op.method, op.path));
          expect(res.response.status, `${where} 401`).toBe(401);
          expect(res.error).toMatchObject({ error_code: "UNAUTHENTICATED" });
        }
      }
    }
  });

  it("every answer matched its revision's spec, and every operation was exercised", () => {
    expect(recorder.violations()).toEqual([]);
    const rows = coverage(recorder.operations(), recorder.exchanges);
    console.log(
      `\ncontract coverage on ${kind} (exchanges per status; 500 and 503 are exempt):\n${coverageTable(rows)}\n`,
    );
    expect(
      rows
        .filter((r) => r.missing.length > 0)
        .map((r) => `${r.op.revision.toUpperCase()} ${r.op.operationId}: ${r.missing.join(", ")}`),
    ).toEqual([]);
    expect(rows.length).toBe(14 + 18 + 42);
  });
});
