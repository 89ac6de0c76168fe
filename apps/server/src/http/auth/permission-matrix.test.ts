import { describe, expect, it } from "vitest";
import {
  call,
  changedTables,
  snapshotDatabase,
  testDatabases,
  useTestServer,
  type JsonResponse,
} from "@tracker/testing";
import type { Capability } from "../../core/auth/permissions.js";

/**
 * Issue 29's permission matrix: for each role (admin, MANAGE, EDIT, READ, NO_PERMISSIONS, no
 * credentials, a revoked token) and operations of every revision (A, B, C), ext.yaml (aliases, the
 * artifact service) and auth.yaml, the expected 200, 401 or 403, with the database unchanged after
 * every refusal. Each role works on its own experiment, run and registered model (created by
 * another user, who grants the role its permission), so the allowed deletes do not disturb others.
 */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const OWNER = { username: "owner", password: "owner-password-1234" };
const basicHeader = (u: { username: string; password: string }) => ({
  authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`,
});

type Role = "admin" | "MANAGE" | "EDIT" | "READ" | "NO_PERMISSIONS" | "no credentials" | "revoked token";
const DENIED = { error_code: "PERMISSION_DENIED", message: "Permission denied" };
const ROLES: Role[] = ["admin", "MANAGE", "EDIT", "READ", "NO_PERMISSIONS", "no credentials", "revoked token"];

interface Resources {
  experimentId: string;
  experimentName: string;
  runId: string;
  model: string;
}

interface Operation {
  name: string;
  need: Capability | "admin";
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  path: (r: Resources) => string;
  input?: (r: Resources) => Record<string, unknown> | string;
}

const artifactFile = (r: Resources) =>
  `/api/2.0/mlflow-artifacts/artifacts/${r.experimentId}/${r.runId}/artifacts/a.txt`;

/** In order: reads, updates, manage, then deletes (the experiment and the model last). */
const OPERATIONS: Operation[] = [
  // reads
  {
    name: "C experiments/get",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/tracker/experiments/get",
    input: (r) => ({ experiment_id: r.experimentId }),
  },
  {
    name: "C experiments/get-by-name (mlflow)",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/mlflow/experiments/get-by-name",
    input: (r) => ({ experiment_name: r.experimentName }),
  },
  {
    name: "A experiments/get",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/preview/tracker/experiments/get",
    input: (r) => ({ experiment_id: r.experimentId }),
  },
  {
    name: "C runs/get (mlflow)",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/mlflow/runs/get",
    input: (r) => ({ run_id: r.runId }),
  },
  {
    name: "B metrics/get-history",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/preview/tracker/metrics/get-history",
    input: (r) => ({ run_uuid: r.runId, metric_key: "m" }),
  },
  {
    name: "C artifacts/list",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/tracker/artifacts/list",
    input: (r) => ({ run_id: r.runId }),
  },
  { name: "artifact download", need: "read", method: "GET", path: artifactFile },
  {
    name: "artifact list",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/mlflow-artifacts/artifacts",
    input: (r) => ({ path: `${r.experimentId}/${r.runId}/artifacts` }),
  },
  {
    name: "/get-artifact",
    need: "read",
    method: "GET",
    path: () => "/get-artifact",
    input: (r) => ({ run_id: r.runId, path: "a.txt" }),
  },
  {
    name: "C registered-models/get",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/mlflow/registered-models/get",
    input: (r) => ({ name: r.model }),
  },
  {
    name: "C model-versions/get",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/preview/tracker/model-versions/get",
    input: (r) => ({ name: r.model, version: "1" }),
  },
  {
    name: "C get-latest-versions",
    need: "read",
    method: "POST",
    path: () => "/api/2.0/tracker/registered-models/get-latest-versions",
    input: (r) => ({ name: r.model }),
  },
  {
    name: "ext registered-models/aliases",
    need: "read",
    method: "GET",
    path: () => "/api/2.0/tracker/registered-models/aliases",
    input: (r) => ({ name: r.model }),
  },
  // updates
  {
    name: "C experiments/set-experiment-tag",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/tracker/experiments/set-experiment-tag",
    input: (r) => ({ experiment_id: r.experimentId, key: "k", value: "v" }),
  },
  {
    name: "C runs/create",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/mlflow/runs/create",
    input: (r) => ({ experiment_id: r.experimentId }),
  },
  {
    name: "C runs/log-metric",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/tracker/runs/log-metric",
    input: (r) => ({ run_id: r.runId, key: "m2", value: 2, timestamp: 2 }),
  },
  {
    name: "C runs/log-batch",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/mlflow/runs/log-batch",
    input: (r) => ({ run_id: r.runId, params: [{ key: "p", value: "1" }] }),
  },
  {
    name: "B runs/set-tag",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/preview/tracker/runs/set-tag",
    input: (r) => ({ run_uuid: r.runId, key: "t", value: "1" }),
  },
  {
    name: "A runs/log-parameter",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/preview/tracker/runs/log-parameter",
    input: (r) => ({ run_uuid: r.runId, key: "p2", value: "1" }),
  },
  {
    name: "artifact upload",
    need: "update",
    method: "PUT",
    path: (r) => `/api/2.0/mlflow-artifacts/artifacts/${r.experimentId}/${r.runId}/artifacts/b.txt`,
    input: () => "bytes",
  },
  {
    name: "C registered-models/update",
    need: "update",
    method: "PATCH",
    path: () => "/api/2.0/mlflow/registered-models/update",
    input: (r) => ({ name: r.model, description: "d" }),
  },
  {
    name: "C model-versions/create",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/mlflow/model-versions/create",
    input: (r) => ({ name: r.model, source: "s3://b/m2" }),
  },
  {
    name: "ext registered-models/alias (set)",
    need: "update",
    method: "POST",
    path: () => "/api/2.0/mlflow/registered-models/alias",
    input: (r) => ({ name: r.model, alias: "champion", version: "1" }),
  },
  // manage
  {
    name: "auth experiments/permissions/get",
    need: "manage",
    method: "GET",
    path: () => "/api/2.0/mlflow/experiments/permissions/get",
    input: (r) => ({ experiment_id: r.experimentId, username: OWNER.username }),
  },
  {
    name: "auth registered-models/permissions/get",
    need: "manage",
    method: "GET",
    path: () => "/api/2.0/mlflow/registered-models/permissions/get",
    input: (r) => ({ name: r.model, username: OWNER.username }),
  },
  {
    name: "auth experiments/permissions/list",
    need: "manage",
    method: "GET",
    path: () => "/api/2.0/tracker/experiments/permissions/list",
    input: (r) => ({ experiment_id: r.experimentId }),
  },
  {
    name: "auth registered-models/permissions/list",
    need: "manage",
    method: "GET",
    path: () => "/api/2.0/tracker/registered-models/permissions/list",
    input: (r) => ({ name: r.model }),
  },
  // admin
  { name: "auth users/list", need: "admin", method: "GET", path: () => "/api/2.0/tracker/users/list" },
  // deletes
  {
    name: "ext registered-models/alias (delete)",
    need: "delete",
    method: "DELETE",
    path: () => "/api/2.0/mlflow/registered-models/alias",
    input: (r) => ({ name: r.model, alias: "champion" }),
  },
  { name: "artifact delete", need: "update", method: "DELETE", path: artifactFile },
  {
    name: "C runs/delete",
    need: "delete",
    method: "POST",
    path: () => "/api/2.0/mlflow/runs/delete",
    input: (r) => ({ run_id: r.runId }),
  },
  {
    name: "C model-versions/delete",
    need: "delete",
    method: "DELETE",
    path: () => "/api/2.0/mlflow/model-versions/delete",
    input: (r) => ({ name: r.model, version: "1" }),
  },
  {
    name: "B experiments/delete",
    need: "delete",
    method: "POST",
    path: () => "/api/2.0/preview/tracker/experiments/delete",
    input: (r) => ({ experiment_id: r.experimentId }),
  },
  {
    name: "C registered-models/delete",
    need: "delete",
    method: "DELETE",
    path: () => "/api/2.0/mlflow/registered-models/delete",
    input: (r) => ({ name: r.model }),
  },
];

const GRANTS: Record<Capability, Role[]> = {
  read: ["admin", "MANAGE", "EDIT", "READ"],
  update: ["admin", "MANAGE", "EDIT"],
  delete: ["admin", "MANAGE"],
  manage: ["admin", "MANAGE"],
};

function expected(role: Role, need: Operation["need"]): number {
  if (role === "no credentials" || role === "revoked token") return 401;
  if (need === "admin") return role === "admin" ? 200 : 403;
  return GRANTS[need].includes(role) ? 200 : 403;
}

describe.each(testDatabases())("permission matrix on %s", (kind) => {
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN });

  const send = (headers: Record<string, string>, op: Operation, r: Resources): Promise<JsonResponse> => {
    const input = op.input?.(r);
    if (typeof input === "string")
      return call(suite.url, op.method, op.path(r), input, { "content-type": "text/plain", ...headers });
    return call(suite.url, op.method, op.path(r), input, headers);
  };

  it("answers every role as MLflow's permissions say, and refusals change nothing", { timeout: 600_000 }, async () => {
    const admin = basicHeader(ADMIN);
    const owner = basicHeader(OWNER);
    const ok = async (res: Promise<JsonResponse>) => {
      const answer = await res;
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as Record<string, never>;
    };
    await ok(call(suite.url, "POST", "/api/2.0/mlflow/users/create", OWNER, admin));

    const headersOf: Partial<Record<Role, Record<string, string>>> = { admin, "no credentials": {} };
    const resources = {} as Record<Role, Resources>;
    for (const role of ROLES) {
      const slug = role.replace(/\W+/g, "-").toLowerCase();
      const created = await ok(
        call(suite.url, "POST", "/api/2.0/mlflow/experiments/create", { name: `exp-${slug}` }, owner),
      );
      const experimentId = String(created.experiment_id);
      const run = (await ok(
        call(suite.url, "POST", "/api/2.0/mlflow/runs/create", { experiment_id: experimentId }, owner),
      )) as unknown as { run: { info: { run_id: string } } };
      const runId = run.run.info.run_id;
      await ok(
        call(
          suite.url,
          "POST",
          "/api/2.0/mlflow/runs/log-metric",
          { run_id: runId, key: "m", value: 1, timestamp: 1 },
          owner,
        ),
      );
      const upload = await fetch(
        `${suite.url}${artifactFile({ experimentId, runId, experimentName: "", model: "" })}`,
        {
          method: "PUT",
          body: "hello",
          headers: { ...owner, "content-type": "text/plain" },
        },
      );
      expect(upload.status).toBe(200);
      const model = `model-${slug}`;
      await ok(call(suite.url, "POST", "/api/2.0/mlflow/registered-models/create", { name: model }, owner));
      await ok(
        call(suite.url, "POST", "/api/2.0/mlflow/model-versions/create", { name: model, source: "s3://b/m" }, owner),
      );
      resources[role] = { experimentId, experimentName: `exp-${slug}`, runId, model };

      if (role === "admin" || role === "no credentials") continue;
      const user = { username: `user-${slug}`, password: `${slug}-password-1234` };
      await ok(call(suite.url, "POST", "/api/2.0/mlflow/users/create", user, admin));
      const permission = role === "revoked token" ? "MANAGE" : role;
      await ok(
        call(
          suite.url,
          "POST",
          "/api/2.0/mlflow/experiments/permissions/create",
          { experiment_id: experimentId, username: user.username, permission },
          owner,
        ),
      );
      await ok(
        call(
          suite.url,
          "POST",
          "/api/2.0/mlflow/registered-models/permissions/create",
          { name: model, username: user.username, permission },
          owner,
        ),
      );
      if (role === "revoked token") {
        const made = (await ok(
          call(suite.url, "POST", "/api/2.0/tracker/access-tokens/create", { name: "t" }, basicHeader(user)),
        )) as unknown as { token: string; access_token: { id: string } };
        await ok(call(suite.url, "POST", "/api/2.0/tracker/access-tokens/revoke", { id: made.access_token.id }, admin));
        headersOf[role] = { authorization: `Bearer ${made.token}` };
      } else {
        headersOf[role] = basicHeader(user);
      }
    }

    const knex = suite.server.database.knex;
    const mismatches: string[] = [];
    for (const role of ROLES) {
      // The refusals first, all of them between two snapshots (a refused call must change nothing),
      // then the allowed calls in their order (reads, updates, manage, deletes).
      const refused = OPERATIONS.filter((op) => expected(role, op.need) !== 200);
      const before = await snapshotDatabase(knex);
      for (const op of refused) {
        const want = expected(role, op.need);
        const answer = await send(headersOf[role]!, op, resources[role]);
        if (answer.status !== want)
          mismatches.push(`${role} × ${op.name}: ${answer.status} (wanted ${want}) ${JSON.stringify(answer.body)}`);
        else if (want === 403 && JSON.stringify(answer.body) !== JSON.stringify(DENIED))
          mismatches.push(`${role} × ${op.name}: ${JSON.stringify(answer.body)}`);
        else if (want === 401 && !answer.headers.get("www-authenticate")?.includes("Basic"))
          mismatches.push(`${role} × ${op.name}: no WWW-Authenticate: Basic`);
      }
      const changed = changedTables(before, await snapshotDatabase(knex));
      if (changed.length > 0) mismatches.push(`${role}: refused calls changed ${changed.join(", ")}`);
      for (const op of OPERATIONS.filter((o) => expected(role, o.need) === 200)) {
        const answer = await send(headersOf[role]!, op, resources[role]);
        if (answer.status !== 200)
          mismatches.push(`${role} × ${op.name}: ${answer.status} (wanted 200) ${JSON.stringify(answer.body)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("searches answer only what the user may read", { timeout: 120_000 }, async () => {
    const admin = basicHeader(ADMIN);
    const reader = { username: "searcher", password: "searcher-password-1" };
    await call(suite.url, "POST", "/api/2.0/mlflow/users/create", reader, admin);
    const hidden = await call<{ experiment_id: string }>(
      suite.url,
      "POST",
      "/api/2.0/mlflow/experiments/create",
      { name: "hidden" },
      admin,
    );
    const shown = await call<{ experiment_id: string }>(
      suite.url,
      "POST",
      "/api/2.0/mlflow/experiments/create",
      { name: "shown" },
      admin,
    );
    await call(
      suite.url,
      "POST",
      "/api/2.0/mlflow/experiments/permissions/create",
      { experiment_id: hidden.body.experiment_id, username: reader.username, permission: "NO_PERMISSIONS" },
      admin,
    );
    const headers = basicHeader(reader);
    for (const [method, path, input, list] of [
      ["POST", "/api/2.0/mlflow/experiments/search", { max_results: 1000 }, "experiments"],
      ["GET", "/api/2.0/tracker/experiments/list", {}, "experiments"],
      ["GET", "/api/2.0/preview/tracker/experiments/list", {}, "experiments"],
    ] as const) {
      const res = await call<Record<string, Array<{ experiment_id: string | number }>>>(
        suite.url,
        method,
        path,
        input,
        headers,
      );
      expect(res.status).toBe(200);
      const ids = (res.body[list] ?? []).map((e) => String(e.experiment_id));
      expect(ids, path).toContain(String(shown.body.experiment_id));
      expect(ids, path).not.toContain(String(hidden.body.experiment_id));
    }
    const runs = await call<{ runs: unknown[] }>(
      suite.url,
      "POST",
      "/api/2.0/preview/tracker/runs/search",
      { experiment_ids: [hidden.body.experiment_id] },
      headers,
    );
    expect(runs.status).toBe(200);
    expect(runs.body.runs).toEqual([]);
  });
});
