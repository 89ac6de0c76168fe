import { testDatabases, useTestServer } from "@tracker/testing";
import { describe, expect, it } from "vitest";
import { createClient } from "./raw.js";
import { createClient as createRevA } from "./rev-a.js";
import { createClient as createRevB } from "./rev-b.js";
import { createClient as createRevC } from "./rev-c.js";

describe.each(testDatabases())("raw typed clients on %s", (kind) => {
  const suite = useTestServer(kind);

  it("revision C: createClient({ revision: 'c' }) and the rev-c subpath", async () => {
    const api = createClient({ baseUrl: suite.url, revision: "c" });
    const created = await api.POST("/2.0/tracker/experiments/create", { body: { name: "raw-c" } });
    expect(created.error).toBeUndefined();
    const id = created.data?.experiment_id ?? "";
    expect(typeof id).toBe("string");

    const viaSubpath = createRevC({ baseUrl: suite.url });
    const { data, response } = await viaSubpath.GET("/2.0/tracker/experiments/get", {
      params: { query: { experiment_id: id } },
    });
    expect(response.status).toBe(200);
    expect(data?.experiment.name).toBe("raw-c");
  });

  it("revision C returns error answers as { error } with the server's body", async () => {
    const api = createRevC({ baseUrl: suite.url });
    const { data, error, response } = await api.GET("/2.0/tracker/runs/get", {
      params: { query: { run_id: "f".repeat(32) } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error_code: "RESOURCE_DOES_NOT_EXIST" });
  });

  it("revision A: numeric experiment ids under the preview prefix", async () => {
    const api = createRevA({ baseUrl: suite.url });
    const created = await api.POST("/2.0/preview/tracker/experiments/create", { body: { name: "raw-a" } });
    const id = created.data?.experiment_id;
    expect(typeof id).toBe("number");
    const got = await api.GET("/2.0/preview/tracker/experiments/get", {
      params: { query: { experiment_id: id ?? -1 } },
    });
    expect(got.data?.experiment.name).toBe("raw-a");
    expect(Array.isArray(got.data?.runs)).toBe(true);

    const viaMain = createClient({ baseUrl: suite.url, revision: "a" });
    expect(
      (await viaMain.GET("/2.0/preview/tracker/experiments/list")).data?.experiments.some((e) => e.name === "raw-a"),
    ).toBe(true);
  });

  it("revision B: sees what revision C wrote, over the same database", async () => {
    const c = createRevC({ baseUrl: suite.url });
    const created = await c.POST("/2.0/tracker/experiments/create", { body: { name: "raw-b-shared" } });
    const b = createRevB({ baseUrl: suite.url });
    const got = await b.GET("/2.0/preview/tracker/experiments/get", {
      params: { query: { experiment_id: Number(created.data?.experiment_id) } },
    });
    expect(got.data?.experiment.name).toBe("raw-b-shared");
  });

  it("rejects an unknown revision", () => {
    // @ts-expect-error "d" is not a revision
    expect(() => createClient({ baseUrl: suite.url, revision: "d" })).toThrow(TypeError);
    expect(() => createClient({ baseUrl: "" })).toThrow(/baseUrl/);
  });
});
