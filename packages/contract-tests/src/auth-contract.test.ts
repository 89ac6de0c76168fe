import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient as createAuthClient } from "@tracker-ml/client/auth";
import { serverProcessDatabases } from "@tracker/testing";
import { coverage, coverageTable } from "./harness/coverage.js";
import { Recorder } from "./harness/recorder.js";
import { startContractServer, type ContractServer } from "./harness/servers.js";

/**
 * The contract of users, permissions and personal access tokens (spec/auth.yaml): the published
 * client (`@tracker-ml/client/auth`) against the real server process started with `--auth users`
 * (TRACKER_AUTH=users), every answer validated by Ajv against auth.yaml, and every operation
 * exercised with every status it documents (404 ENDPOINT_NOT_FOUND also on a server with auth off).
 */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const basic = (u: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;

describe.each(serverProcessDatabases())("contract: client x server x auth.yaml on %s", (kind) => {
  const recorder = new Recorder();
  let server: ContractServer;
  let offServer: ContractServer;

  beforeAll(async () => {
    [server, offServer] = await Promise.all([
      startContractServer(kind, {
        TRACKER_AUTH: "users",
        TRACKER_AUTH_ADMIN_USERNAME: ADMIN.username,
        TRACKER_AUTH_ADMIN_PASSWORD: ADMIN.password,
      }),
      startContractServer(kind),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), offServer?.stop()]);
  });

  const clientAs = (authorization?: string, url = () => server.url) =>
    createAuthClient({
      baseUrl: url(),
      retry: false,
      headers: authorization ? { authorization } : {},
      fetch: recorder.fetchFor("auth"),
    });

  /** A hand-made request through the recording fetch (for the error statuses). */
  const raw = async (
    method: string,
    path: string,
    input: Record<string, unknown> = {},
    authorization?: string,
    base = () => server.url,
  ): Promise<number> => {
    const fetchAuth = recorder.fetchFor("auth");
    const headers: Record<string, string> = authorization ? { authorization } : {};
    let url = `${base()}${path}`;
    let body: string | undefined;
    if (method === "GET") url += `?${new URLSearchParams(input as Record<string, string>).toString()}`;
    else {
      body = JSON.stringify(input);
      headers["content-type"] = "application/json";
    }
    return (await fetchAuth(url, { method, headers, body })).status;
  };

  it("serves MLflow's users and permissions API and tracker's tokens through the client", {
    timeout: 300_000,
  }, async () => {
    const admin = clientAs(basic(ADMIN));
    const made = await admin.POST("/api/2.0/tracker/users/create", {
      body: { username: "ann", password: "ann-password-123" },
    });
    expect(made.data?.user).toMatchObject({ username: "ann", is_admin: false });
    const ann = clientAs(basic({ username: "ann", password: "ann-password-123" }));
    expect(
      (await ann.GET("/api/2.0/tracker/users/get", { params: { query: { username: "ann" } } })).data?.user.username,
    ).toBe("ann");
    expect((await ann.GET("/api/2.0/tracker/users/current")).data?.user.username).toBe("ann");
    expect((await admin.GET("/api/2.0/tracker/users/list")).data?.users.map((u) => u.username)).toContain("ann");
    // ann's experiment (created through the revision C path, with raw fetch) and model.
    const exp = await fetch(`${server.url}/api/2.0/mlflow/experiments/create`, {
      method: "POST",
      headers: {
        authorization: basic({ username: "ann", password: "ann-password-123" }),
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "anns" }),
    });
    const experimentId = ((await exp.json()) as { experiment_id: string }).experiment_id;
    await fetch(`${server.url}/api/2.0/mlflow/registered-models/create`, {
      method: "POST",
      headers: {
        authorization: basic({ username: "ann", password: "ann-password-123" }),
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "anns-model" }),
    });
    await admin.POST("/api/2.0/tracker/users/create", { body: { username: "ben", password: "ben-password-123" } });
    const grant = await ann.POST("/api/2.0/tracker/experiments/permissions/create", {
      body: { experiment_id: experimentId, username: "ben", permission: "READ" },
    });
    expect(grant.data?.experiment_permission).toMatchObject({ experiment_id: experimentId, permission: "READ" });
    expect(
      (
        await ann.GET("/api/2.0/tracker/experiments/permissions/get", {
          params: { query: { experiment_id: experimentId, username: "ben" } },
        })
      ).data?.experiment_permission.permission,
    ).toBe("READ");
    expect(
      (
        await ann.PATCH("/api/2.0/tracker/experiments/permissions/update", {
          body: { experiment_id: experimentId, username: "ben", permission: "EDIT" },
        })
      ).response.status,
    ).toBe(200);
    expect(
      (
        await ann.DELETE("/api/2.0/tracker/experiments/permissions/delete", {
          body: { experiment_id: experimentId, username: "ben" },
        })
      ).response.status,
    ).toBe(200);
    const modelGrant = await ann.POST("/api/2.0/tracker/registered-models/permissions/create", {
      body: { name: "anns-model", username: "ben", permission: "READ" },
    });
    expect(modelGrant.data?.registered_model_permission).toMatchObject({ name: "anns-model", permission: "READ" });
    expect(
      (
        await ann.GET("/api/2.0/tracker/registered-models/permissions/get", {
          params: { query: { name: "anns-model", username: "ben" } },
        })
      ).response.status,
    ).toBe(200);
    expect(
      (
        await ann.PATCH("/api/2.0/tracker/registered-models/permissions/update", {
          body: { name: "anns-model", username: "ben", permission: "EDIT" },
        })
      ).response.status,
    ).toBe(200);
    expect(
      (
        await ann.DELETE("/api/2.0/tracker/registered-models/permissions/delete", {
          body: { name: "anns-model", username: "ben" },
        })
      ).response.status,
    ).toBe(200);
    const token = await ann.POST("/api/2.0/tracker/access-tokens/create", { body: { name: "ci" } });
    expect(token.data?.token).toMatch(/^trk_/);
    const byToken = clientAs(`Bearer ${token.data?.token}`);
    expect((await byToken.GET("/api/2.0/tracker/users/current")).data?.user.username).toBe("ann");
    expect((await ann.GET("/api/2.0/tracker/access-tokens/list")).data?.access_tokens).toHaveLength(1);
    expect(
      (await ann.POST("/api/2.0/tracker/access-tokens/revoke", { body: { id: token.data!.access_token.id } })).response
        .status,
    ).toBe(200);
    expect(
      (
        await ann.PATCH("/api/2.0/tracker/users/update-password", {
          body: { username: "ann", password: "ann-password-456" },
        })
      ).response.status,
    ).toBe(200);
    expect(
      (await admin.PATCH("/api/2.0/tracker/users/update-admin", { body: { username: "ben", is_admin: false } }))
        .response.status,
    ).toBe(200);
    expect((await admin.DELETE("/api/2.0/tracker/users/delete", { body: { username: "ben" } })).response.status).toBe(
      200,
    );

    // The audit trail: who changed which user, permission and token, newest first, in pages.
    const trail = await admin.GET("/api/2.0/tracker/audit/list", { params: { query: { max_results: 5 } } });
    expect(trail.data?.entries).toHaveLength(5);
    expect(trail.data?.entries[0]).toMatchObject({ actor: "admin", action: "deleteUser", target: "user:ben" });
    const rest = await admin.GET("/api/2.0/tracker/audit/list", {
      params: { query: { max_results: 1000, page_token: trail.data!.next_page_token! } },
    });
    const all = [...trail.data!.entries, ...rest.data!.entries];
    expect(rest.data?.next_page_token).toBeUndefined();
    expect(all.map((e) => `${e.actor} ${e.action} ${e.target}`).reverse()).toEqual([
      "admin createUser user:ann",
      "admin createUser user:ben",
      `ann createExperimentPermission experiment:${experimentId}`,
      `ann updateExperimentPermission experiment:${experimentId}`,
      `ann deleteExperimentPermission experiment:${experimentId}`,
      "ann createRegisteredModelPermission registered_model:anns-model",
      "ann updateRegisteredModelPermission registered_model:anns-model",
      "ann deleteRegisteredModelPermission registered_model:anns-model",
      `ann createAccessToken access_token:${token.data!.access_token.id}`,
      `ann revokeAccessToken access_token:${token.data!.access_token.id}`,
      "ann updateUserPassword user:ann",
      "admin updateUserAdmin user:ben",
      "admin deleteUser user:ben",
    ]);
    expect(all.find((e) => e.action === "createExperimentPermission")?.details).toEqual({
      username: "ben",
      permission: "READ",
    });
    // Never a secret.
    expect(JSON.stringify(all)).not.toMatch(/password-|trk_/);

    // Every documented error status of every operation.
    const adminAuth = basic(ADMIN);
    const annAuth = basic({ username: "ann", password: "ann-password-456" });
    await admin.POST("/api/2.0/tracker/users/create", { body: { username: "cal", password: "cal-password-123" } });
    const calAuth = basic({ username: "cal", password: "cal-password-123" });
    const off = () => offServer.url;
    const P = "/api/2.0/tracker/";
    const cases: Array<[number, string, string, Record<string, unknown>, string | undefined, (() => string)?]> = [
      // users/create
      [400, "POST", `${P}users/create`, { username: "dee", password: "short" }, adminAuth],
      [401, "POST", `${P}users/create`, { username: "dee", password: "dee-password-123" }, undefined],
      [403, "POST", `${P}users/create`, { username: "dee", password: "dee-password-123" }, annAuth],
      [404, "POST", `${P}users/create`, { username: "dee", password: "dee-password-123" }, undefined, off],
      // users/get
      [400, "GET", `${P}users/get`, {}, adminAuth],
      [401, "GET", `${P}users/get`, { username: "ann" }, undefined],
      [403, "GET", `${P}users/get`, { username: "admin" }, annAuth],
      [404, "GET", `${P}users/get`, { username: "nobody" }, adminAuth],
      // users/current, users/list
      [401, "GET", `${P}users/current`, {}, undefined],
      [404, "GET", `${P}users/current`, {}, undefined, off],
      [401, "GET", `${P}users/list`, {}, undefined],
      [403, "GET", `${P}users/list`, {}, annAuth],
      [404, "GET", `${P}users/list`, {}, undefined, off],
      // users/update-password, update-admin, delete
      [400, "PATCH", `${P}users/update-password`, { username: "ann", password: "short" }, annAuth],
      [401, "PATCH", `${P}users/update-password`, { username: "ann", password: "ann-password-789" }, undefined],
      [403, "PATCH", `${P}users/update-password`, { username: "cal", password: "cal-password-789" }, annAuth],
      [404, "PATCH", `${P}users/update-password`, { username: "nobody", password: "nobody-password-1" }, adminAuth],
      [400, "PATCH", `${P}users/update-admin`, { username: "cal" }, adminAuth],
      [401, "PATCH", `${P}users/update-admin`, { username: "cal", is_admin: true }, undefined],
      [403, "PATCH", `${P}users/update-admin`, { username: "cal", is_admin: true }, annAuth],
      [404, "PATCH", `${P}users/update-admin`, { username: "nobody", is_admin: true }, adminAuth],
      [400, "DELETE", `${P}users/delete`, {}, adminAuth],
      [401, "DELETE", `${P}users/delete`, { username: "cal" }, undefined],
      [403, "DELETE", `${P}users/delete`, { username: "cal" }, annAuth],
      [404, "DELETE", `${P}users/delete`, { username: "nobody" }, adminAuth],
      // experiment permissions (cal has the default READ on ann's experiment: not MANAGE)
      ...(["create", "get", "update", "delete"] as const).flatMap((verb) => {
        const method = { create: "POST", get: "GET", update: "PATCH", delete: "DELETE" }[verb];
        const good = {
          experiment_id: experimentId,
          username: "cal",
          ...(verb === "create" || verb === "update" ? { permission: "READ" } : {}),
        };
        return [
          [400, method, `${P}experiments/permissions/${verb}`, { username: "cal" }, annAuth],
          [401, method, `${P}experiments/permissions/${verb}`, good, undefined],
          [403, method, `${P}experiments/permissions/${verb}`, good, calAuth],
          [404, method, `${P}experiments/permissions/${verb}`, { ...good, username: "nobody" }, annAuth],
        ] as Array<[number, string, string, Record<string, unknown>, string | undefined]>;
      }),
      ...(["create", "get", "update", "delete"] as const).flatMap((verb) => {
        const method = { create: "POST", get: "GET", update: "PATCH", delete: "DELETE" }[verb];
        const good = {
          name: "anns-model",
          username: "cal",
          ...(verb === "create" || verb === "update" ? { permission: "READ" } : {}),
        };
        return [
          [400, method, `${P}registered-models/permissions/${verb}`, { username: "cal" }, annAuth],
          [401, method, `${P}registered-models/permissions/${verb}`, good, undefined],
          [403, method, `${P}registered-models/permissions/${verb}`, good, calAuth],
          [404, method, `${P}registered-models/permissions/${verb}`, { ...good, username: "nobody" }, annAuth],
        ] as Array<[number, string, string, Record<string, unknown>, string | undefined]>;
      }),
      // tokens
      [400, "POST", `${P}access-tokens/create`, { name: "old", expires_at: 1 }, annAuth],
      [401, "POST", `${P}access-tokens/create`, { name: "x" }, undefined],
      [404, "POST", `${P}access-tokens/create`, { name: "x" }, undefined, off],
      [401, "GET", `${P}access-tokens/list`, {}, undefined],
      [403, "GET", `${P}access-tokens/list`, { username: "admin" }, annAuth],
      [404, "GET", `${P}access-tokens/list`, { username: "nobody" }, adminAuth],
      [400, "POST", `${P}access-tokens/revoke`, {}, annAuth],
      [401, "POST", `${P}access-tokens/revoke`, { id: "1" }, undefined],
      [404, "POST", `${P}access-tokens/revoke`, { id: "999999" }, annAuth],
      // audit/list
      [400, "GET", `${P}audit/list`, { max_results: "0" }, adminAuth],
      [401, "GET", `${P}audit/list`, {}, undefined],
      [403, "GET", `${P}audit/list`, {}, annAuth],
      [404, "GET", `${P}audit/list`, {}, undefined, off],
    ];
    const wrong: string[] = [];
    for (const [status, method, path, input, auth, base] of cases) {
      const got = await raw(method, path, input, auth, base);
      if (got !== status) wrong.push(`${method} ${path} ${JSON.stringify(input)}: ${got}, wanted ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("serves the web UI's sign-in session and permission lists", { timeout: 300_000 }, async () => {
    const admin = clientAs(basic(ADMIN));
    await admin.POST("/api/2.0/tracker/users/create", { body: { username: "eve", password: "eve-password-123" } });
    const signedIn = await clientAs().POST("/api/2.0/tracker/session/sign-in", {
      body: { username: "eve", password: "eve-password-123" },
    });
    expect(signedIn.data?.user).toMatchObject({ username: "eve", is_admin: false });
    const cookie = /^tracker_session=[^;]+/.exec(signedIn.response.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const csrf = signedIn.data?.csrf_token ?? "";
    const eve = createAuthClient({
      baseUrl: server.url,
      retry: false,
      headers: { cookie, "x-csrf-token": csrf },
      fetch: recorder.fetchFor("auth"),
    });
    expect((await eve.GET("/api/2.0/tracker/session")).data).toMatchObject({
      user: { username: "eve" },
      csrf_token: csrf,
    });
    expect((await clientAs().GET("/api/2.0/tracker/session")).data).toEqual({ auth: "users" });
    expect((await clientAs(undefined, () => offServer.url).GET("/api/2.0/tracker/session")).data).toEqual({
      auth: "none",
    });
    const exp = await fetch(`${server.url}/api/2.0/mlflow/experiments/create`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" },
      body: JSON.stringify({ name: "eves" }),
    });
    const experimentId = ((await exp.json()) as { experiment_id: string }).experiment_id;
    await eve.POST("/api/2.0/tracker/experiments/permissions/create", {
      body: { experiment_id: experimentId, username: "ann", permission: "READ" },
    });
    const listed = await eve.GET("/api/2.0/tracker/experiments/permissions/list", {
      params: { query: { experiment_id: experimentId } },
    });
    expect(listed.data?.permissions.map((p) => [p.username, p.permission])).toEqual([
      ["ann", "READ"],
      ["eve", "MANAGE"],
    ]);
    await fetch(`${server.url}/api/2.0/mlflow/registered-models/create`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json" },
      body: JSON.stringify({ name: "eves-model" }),
    });
    const models = await eve.GET("/api/2.0/tracker/registered-models/permissions/list", {
      params: { query: { name: "eves-model" } },
    });
    expect(models.data?.permissions.map((p) => p.username)).toEqual(["eve"]);

    const P = "/api/2.0/tracker/";
    const fetchAuth = recorder.fetchFor("auth");
    const status = async (
      method: string,
      path: string,
      input: Record<string, string>,
      headers: Record<string, string>,
      base = server.url,
    ) => {
      const query = method === "GET" ? `?${new URLSearchParams(input).toString()}` : "";
      const body = method === "GET" ? undefined : JSON.stringify(input);
      const sent = method === "GET" ? headers : { ...headers, "content-type": "application/json" };
      return (await fetchAuth(`${base}${path}${query}`, { method, headers: sent, body })).status;
    };
    const calAuth = { authorization: basic({ username: "cal", password: "cal-password-123" }) };
    const adminAuth = { authorization: basic(ADMIN) };
    const cases: Array<[number, string, string, Record<string, string>, Record<string, string>, string?]> = [
      [400, "POST", `${P}session/sign-in`, { username: "eve" }, {}],
      [401, "POST", `${P}session/sign-in`, { username: "eve", password: "wrong-password-1" }, {}],
      [404, "POST", `${P}session/sign-in`, { username: "eve", password: "eve-password-123" }, {}, offServer.url],
      [403, "POST", `${P}session/sign-out`, {}, { cookie }],
      [404, "POST", `${P}session/sign-out`, {}, {}, offServer.url],
      [400, "GET", `${P}experiments/permissions/list`, {}, adminAuth],
      [401, "GET", `${P}experiments/permissions/list`, { experiment_id: experimentId }, {}],
      [403, "GET", `${P}experiments/permissions/list`, { experiment_id: experimentId }, calAuth],
      [404, "GET", `${P}experiments/permissions/list`, { experiment_id: "999999" }, adminAuth],
      [400, "GET", `${P}registered-models/permissions/list`, {}, adminAuth],
      [401, "GET", `${P}registered-models/permissions/list`, { name: "eves-model" }, {}],
      [403, "GET", `${P}registered-models/permissions/list`, { name: "eves-model" }, calAuth],
      [404, "GET", `${P}registered-models/permissions/list`, { name: "nobodys-model" }, adminAuth],
    ];
    const wrong: string[] = [];
    for (const [want, method, path, input, headers, base] of cases) {
      const got = await status(method, path, input, headers, base);
      if (got !== want) wrong.push(`${method} ${path} ${JSON.stringify(input)}: ${got}, wanted ${want}`);
    }
    expect(wrong).toEqual([]);
    expect((await eve.POST("/api/2.0/tracker/session/sign-out")).response.status).toBe(200);
    expect((await eve.GET("/api/2.0/tracker/session")).data).toEqual({ auth: "users" });

    // Repeated wrong passwords for one username: 5 are free, then each failure blocks the name for
    // 1 s, 2 s, 4 s ...; the blocks double, so some attempt soon comes inside one, however slow the machine.
    const guesses: number[] = [];
    for (let i = 0; i < 20 && !guesses.includes(429); i++) {
      guesses.push(
        await status("POST", `${P}session/sign-in`, { username: "throttled", password: `guess-${i}-password` }, {}),
      );
    }
    expect(guesses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(guesses.at(-1)).toBe(429);
  });

  it("every answer matched auth.yaml, and every operation was exercised with each documented status", () => {
    expect(recorder.violations()).toEqual([]);
    const rows = coverage(recorder.operations(["auth"]), recorder.exchanges);
    console.log(`\nauth.yaml contract coverage on ${kind}:\n${coverageTable(rows)}\n`);
    expect(rows.filter((r) => r.missing.length > 0).map((r) => `${r.op.operationId}: ${r.missing.join(", ")}`)).toEqual(
      [],
    );
  });
});
