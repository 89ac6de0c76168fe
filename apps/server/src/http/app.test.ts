import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

describe.each(testDatabases())("server skeleton on %s", (kind) => {
  const suite = useTestServer(kind);

  it("answers /health with the database kind (more in handlers/health.test.ts)", async () => {
    const res = await call(suite.url, "GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: kind });
  });

  it("answers 404 ENDPOINT_NOT_FOUND in the error body for an unknown path", async () => {
    for (const p of ["/nope", "/api/2.0/tracker/experiments/frobnicate", "/api/3.0/tracker/experiments/create"]) {
      const res = await call(suite.url, "POST", p, {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    }
  });

  it("answers 404 ENDPOINT_NOT_FOUND for a known path with the wrong method", async () => {
    const res = await call(suite.url, "GET", "/api/2.0/tracker/experiments/create");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: "ENDPOINT_NOT_FOUND" });
  });

  it("rejects a missing required field with 400 INVALID_PARAMETER_VALUE naming the field", async () => {
    const res = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    expect((res.body as { message: string }).message).toContain("name");
  });

  it("rejects a field of the wrong type with 400 INVALID_PARAMETER_VALUE", async () => {
    const res = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", { name: 123 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    const preview = await call(suite.url, "GET", "/api/2.0/preview/tracker/experiments/get", { experiment_id: "abc" });
    expect(preview.status).toBe(400);
    expect(preview.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
  });

  it("answers a non-JSON body with 400 and the error body", async () => {
    const res = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", "{not json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "BAD_REQUEST" });
  });

  it("refuses a body not declared as JSON (cross-site.test.ts has the rest)", async () => {
    for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
      const res = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", JSON.stringify({ name: "t" }), {
        "content-type": type,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: "BAD_REQUEST" });
    }
  });

  it("answers a body over 1 MB with 413", async () => {
    const res = await call(suite.url, "POST", "/api/2.0/tracker/experiments/create", { name: "x".repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error_code: "REQUEST_TOO_LARGE" });
  });

  it("serves the mlflow and ajax-api aliases of the same operations", async () => {
    for (const p of [
      "/api/2.0/mlflow/experiments/create",
      "/ajax-api/2.0/tracker/experiments/create",
      "/ajax-api/2.0/preview/mlflow/experiments/create",
    ]) {
      const res = await call(suite.url, "POST", p, {});
      expect(res.status, p).toBe(400);
      expect(res.body).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE" });
    }
  });

  it("keeps data across a restart", async () => {
    const created = await call<{ experiment_id: string }>(suite.url, "POST", "/api/2.0/tracker/experiments/create", {
      name: "survivor",
    });
    expect(created.status).toBe(200);
    await suite.restart();
    const res = await call<{ experiment: { name: string } }>(suite.url, "GET", "/api/2.0/tracker/experiments/get", {
      experiment_id: created.body.experiment_id,
    });
    expect(res.body.experiment.name).toBe("survivor");
    const def = await suite.server.database.knex("experiments").where({ experiment_id: 0 }).first();
    expect(def).toMatchObject({ name: "Default" });
  });
});
