import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer, type JsonResponse } from "@tracker/testing";
import { VerifiedCredentials, hashPassword, verifyPassword } from "../../core/auth/passwords.js";
import { OPERATION_RULES } from "./rules.js";
import { SPEC_ORDER, specPath } from "../revisions.js";
import fs from "node:fs";

/** Users and permissions (issue 29): MLflow's basic-auth API and semantics, and personal access tokens. */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("passwords", () => {
  it("hashes with scrypt and verifies, salted", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterx", a)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });
  it("remembers verified credentials only for the hash they were verified against", async () => {
    const cache = new VerifiedCredentials();
    const hash = await hashPassword("p-123456789012");
    expect(await cache.verify("u", "p-123456789012", hash)).toBe(true);
    expect(await cache.verify("u", "p-123456789012", hash)).toBe(true);
    expect(await cache.verify("u", "p-123456789012", await hashPassword("other-password"))).toBe(false);
    expect(await cache.verify("u", "wrong", hash)).toBe(false);
  });
});

describe("the permission table", () => {
  it("has a rule for every operation of every document", () => {
    const missing: string[] = [];
    for (const spec of SPEC_ORDER) {
      const doc = JSON.parse(fs.readFileSync(specPath(spec), "utf8")) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
      };
      for (const item of Object.values(doc.paths))
        for (const op of Object.values(item))
          if (op.operationId && !(op.operationId in OPERATION_RULES)) missing.push(`${spec}: ${op.operationId}`);
    }
    expect(missing).toEqual([]);
  });
});

describe.each(testDatabases())("users and permissions on %s", (kind) => {
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN });
  const as = (headers: Record<string, string>) => ({
    post: <T = Record<string, unknown>>(path: string, body: Record<string, unknown>) =>
      call<T>(suite.url, "POST", path, body, headers),
    patch: <T = Record<string, unknown>>(path: string, body: Record<string, unknown>) =>
      call<T>(suite.url, "PATCH", path, body, headers),
    delete: <T = Record<string, unknown>>(path: string, body: Record<string, unknown>) =>
      call<T>(suite.url, "DELETE", path, body, headers),
    get: <T = Record<string, unknown>>(path: string, query: Record<string, unknown> = {}) =>
      call<T>(suite.url, "GET", path, query, headers),
  });
  const admin = as(basic(ADMIN.username, ADMIN.password));
  const expectDenied = (res: JsonResponse) => {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error_code: "PERMISSION_DENIED", message: "Permission denied" });
  };

  it("answers 401 with WWW-Authenticate, in MLflow's words, without or with wrong credentials", async () => {
    for (const headers of [{}, basic(ADMIN.username, "wrong-password-1"), basic("nobody", "x"), bearer("trk_nope")]) {
      const res = await call(suite.url, "GET", "/api/2.0/mlflow/experiments/get", { experiment_id: "0" }, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="tracker"/);
      expect(res.body).toMatchObject({ error_code: "UNAUTHENTICATED" });
      expect(String(res.body.message)).toContain("You are not authenticated");
    }
    expect((await call(suite.url, "GET", "/health")).status).toBe(200);
  });

  it("serves MLflow's users API: create, get, update-password, update-admin, delete", async () => {
    const created = await admin.post<{ user: Record<string, unknown> }>("/api/2.0/mlflow/users/create", {
      username: "carol",
      password: "carol-password-1",
    });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({
      username: "carol",
      is_admin: false,
      experiment_permissions: [],
      registered_model_permissions: [],
    });
    const again = await admin.post("/api/2.0/mlflow/users/create", { username: "carol", password: "carol-password-1" });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error_code: "RESOURCE_ALREADY_EXISTS",
      message: "User (username=carol) already exists.",
    });
    const short = await admin.post("/api/2.0/mlflow/users/create", { username: "dan", password: "short" });
    expect(short.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const carol = as(basic("carol", "carol-password-1"));
    expect((await carol.get("/api/2.0/mlflow/users/get", { username: "carol" })).status).toBe(200);
    expectDenied(await carol.get("/api/2.0/mlflow/users/get", { username: "admin" }));
    expectDenied(await carol.post("/api/2.0/mlflow/users/create", { username: "eve", password: "eve-password-123" }));
    expectDenied(await carol.patch("/api/2.0/mlflow/users/update-admin", { username: "carol", is_admin: true }));
    expect(
      (await carol.patch("/api/2.0/mlflow/users/update-password", { username: "carol", password: "carol-password-2" }))
        .status,
    ).toBe(200);
    expect((await carol.get("/api/2.0/tracker/users/current")).status).toBe(401);
    const carol2 = as(basic("carol", "carol-password-2"));
    expect(
      (await carol2.get<{ user: { username: string } }>("/api/2.0/tracker/users/current")).body.user.username,
    ).toBe("carol");
    expect(
      (await admin.patch("/api/2.0/mlflow/users/update-admin", { username: "carol", is_admin: true })).status,
    ).toBe(200);
    expect((await carol2.get("/api/2.0/tracker/users/list")).status).toBe(200);
    const del = await admin.delete("/api/2.0/mlflow/users/delete", { username: "carol" });
    expect(del.status).toBe(200);
    expect((await carol2.get("/api/2.0/tracker/users/current")).status).toBe(401);
    const missing = await admin.get("/api/2.0/mlflow/users/get", { username: "carol" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error_code: "RESOURCE_DOES_NOT_EXIST",
      message: "User with username=carol not found",
    });
  });

  it("gives creators MANAGE, others the default READ, and follows explicit permissions", async () => {
    for (const name of ["alice", "bob"])
      await admin.post("/api/2.0/mlflow/users/create", { username: name, password: `${name}-password-1` });
    const alice = as(basic("alice", "alice-password-1"));
    const bob = as(basic("bob", "bob-password-1"));
    const created = await alice.post<{ experiment_id: string }>("/api/2.0/mlflow/experiments/create", {
      name: "alices",
    });
    const id = created.body.experiment_id;
    const got = await alice.get<{ experiment_permission: Record<string, unknown> }>(
      "/api/2.0/mlflow/experiments/permissions/get",
      { experiment_id: id, username: "alice" },
    );
    expect(got.body.experiment_permission).toMatchObject({ experiment_id: id, permission: "MANAGE" });
    // bob: the default READ.
    expect((await bob.get("/api/2.0/mlflow/experiments/get", { experiment_id: id })).status).toBe(200);
    expectDenied(await bob.post("/api/2.0/mlflow/runs/create", { experiment_id: id }));
    expectDenied(await bob.post("/api/2.0/mlflow/experiments/delete", { experiment_id: id }));
    expectDenied(
      await bob.post("/api/2.0/mlflow/experiments/permissions/create", {
        experiment_id: id,
        username: "bob",
        permission: "MANAGE",
      }),
    );
    // alice shares it with bob: EDIT.
    const shared = await alice.post("/api/2.0/mlflow/experiments/permissions/create", {
      experiment_id: id,
      username: "bob",
      permission: "EDIT",
    });
    expect(shared.body).toMatchObject({ experiment_permission: { experiment_id: id, permission: "EDIT" } });
    const run = await bob.post<{ run: { info: { run_id: string } } }>("/api/2.0/mlflow/runs/create", {
      experiment_id: id,
    });
    expect(run.status).toBe(200);
    const runId = run.body.run.info.run_id;
    expect(
      (await bob.post("/api/2.0/mlflow/runs/log-metric", { run_id: runId, key: "m", value: 1, timestamp: 1 })).status,
    ).toBe(200);
    expectDenied(await bob.post("/api/2.0/mlflow/runs/delete", { run_id: runId }));
    // NO_PERMISSIONS hides it from bob's searches and reads.
    await alice.patch("/api/2.0/mlflow/experiments/permissions/update", {
      experiment_id: id,
      username: "bob",
      permission: "NO_PERMISSIONS",
    });
    expectDenied(await bob.get("/api/2.0/mlflow/experiments/get", { experiment_id: id }));
    expectDenied(await bob.get("/api/2.0/mlflow/runs/get", { run_id: runId }));
    const searched = await bob.post<{ experiments?: Array<{ experiment_id: string }> }>(
      "/api/2.0/mlflow/experiments/search",
      { max_results: 100 },
    );
    expect(searched.body.experiments?.map((e) => e.experiment_id)).not.toContain(id);
    const runs = await bob.post<{ runs?: unknown[] }>("/api/2.0/mlflow/runs/search", { experiment_ids: [id] });
    expect(runs.status).toBe(200);
    expect(runs.body.runs ?? []).toEqual([]);
    const aliceRuns = await alice.post<{ runs?: unknown[] }>("/api/2.0/mlflow/runs/search", { experiment_ids: [id] });
    expect(aliceRuns.body.runs).toHaveLength(1);
    // Back to the default.
    expect(
      (await alice.delete("/api/2.0/mlflow/experiments/permissions/delete", { experiment_id: id, username: "bob" }))
        .status,
    ).toBe(200);
    expect((await bob.get("/api/2.0/mlflow/experiments/get", { experiment_id: id })).status).toBe(200);
    const gone = await alice.get("/api/2.0/mlflow/experiments/permissions/get", { experiment_id: id, username: "bob" });
    expect(gone.body).toEqual({
      error_code: "RESOURCE_DOES_NOT_EXIST",
      message: `Experiment permission with experiment_id=${id} and username=bob not found`,
    });
  });

  it("does the same for registered models, their versions and aliases", async () => {
    for (const name of ["mia", "ned"])
      await admin.post("/api/2.0/mlflow/users/create", { username: name, password: `${name}-password-1` });
    const mia = as(basic("mia", "mia-password-1"));
    const ned = as(basic("ned", "ned-password-1"));
    expect((await mia.post("/api/2.0/mlflow/registered-models/create", { name: "mias-model" })).status).toBe(200);
    expect(
      (await mia.post("/api/2.0/mlflow/model-versions/create", { name: "mias-model", source: "s3://b/m" })).status,
    ).toBe(200);
    expectDenied(await ned.post("/api/2.0/mlflow/model-versions/create", { name: "mias-model", source: "s3://b/m" }));
    expectDenied(
      await ned.post("/api/2.0/mlflow/registered-models/alias", { name: "mias-model", alias: "champ", version: "1" }),
    );
    const permission = await mia.post("/api/2.0/mlflow/registered-models/permissions/create", {
      name: "mias-model",
      username: "ned",
      permission: "NO_PERMISSIONS",
    });
    expect(permission.body).toMatchObject({
      registered_model_permission: { name: "mias-model", permission: "NO_PERMISSIONS" },
    });
    const listed = await ned.get<{ registered_models?: Array<{ name: string }> }>(
      "/api/2.0/mlflow/registered-models/search",
    );
    expect(listed.body.registered_models?.map((m) => m.name) ?? []).not.toContain("mias-model");
    expectDenied(await ned.get("/api/2.0/mlflow/model-versions/get", { name: "mias-model", version: "1" }));
    const bad = await mia.patch("/api/2.0/mlflow/registered-models/permissions/update", {
      name: "mias-model",
      username: "ned",
      permission: "OWNER",
    });
    expect(bad.body).toEqual({
      error_code: "INVALID_PARAMETER_VALUE",
      message: "Invalid permission 'OWNER'. Valid permissions are: ('READ', 'EDIT', 'MANAGE', 'NO_PERMISSIONS')",
    });
  });

  it("issues personal access tokens: shown once, act as their user, listed, revoked", async () => {
    await admin.post("/api/2.0/mlflow/users/create", { username: "tia", password: "tia-password-12" });
    const tia = as(basic("tia", "tia-password-12"));
    const made = await tia.post<{ token: string; access_token: { id: string; name: string } }>(
      "/api/2.0/tracker/access-tokens/create",
      { name: "ci" },
    );
    expect(made.status).toBe(200);
    expect(made.body.token).toMatch(/^trk_[A-Za-z0-9_-]{43}$/);
    const byToken = as(bearer(made.body.token));
    const me = await byToken.get<{ user: { username: string } }>("/api/2.0/tracker/users/current");
    expect(me.body.user.username).toBe("tia");
    const list = await tia.get<{ access_tokens: Array<Record<string, unknown>> }>(
      "/api/2.0/tracker/access-tokens/list",
    );
    expect(list.body.access_tokens).toHaveLength(1);
    expect(list.body.access_tokens[0]).toMatchObject({ name: "ci", username: "tia" });
    expect(list.body.access_tokens[0]).toHaveProperty("last_used_at");
    expect(JSON.stringify(list.body)).not.toContain(made.body.token);
    // Nobody else revokes it, an admin may.
    await admin.post("/api/2.0/mlflow/users/create", { username: "uma", password: "uma-password-12" });
    const uma = as(basic("uma", "uma-password-12"));
    expect((await uma.post("/api/2.0/tracker/access-tokens/revoke", { id: made.body.access_token.id })).status).toBe(
      404,
    );
    expectDenied(await uma.get("/api/2.0/tracker/access-tokens/list", { username: "tia" }));
    expect((await admin.get("/api/2.0/tracker/access-tokens/list", { username: "tia" })).status).toBe(200);
    expect((await admin.post("/api/2.0/tracker/access-tokens/revoke", { id: made.body.access_token.id })).status).toBe(
      200,
    );
    expect((await byToken.get("/api/2.0/tracker/users/current")).status).toBe(401);
    // Expired tokens stop working too.
    const past = await tia.post("/api/2.0/tracker/access-tokens/create", { name: "old", expires_at: 1 });
    expect(past.status).toBe(400);
  });
});

describe.each(testDatabases())("users and permissions off, on %s", (kind) => {
  const suite = useTestServer(kind);
  it("does not serve the auth API", async () => {
    const res = await call(suite.url, "GET", "/api/2.0/mlflow/users/get", { username: "admin" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
  });
});
