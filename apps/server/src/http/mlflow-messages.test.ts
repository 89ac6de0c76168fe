import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, call, testDatabases, useTestServer } from "@tracker/testing";

/**
 * MLflow's own words for client mistakes, in every namespace, and MLflow 2.x's value limits
 * through MLflow's paths (revision C's documented limits through tracker's).
 */
describe.each(testDatabases())("MLflow's messages and limits on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const tracker = suite.api;
  let runId: string;
  beforeAll(async () => {
    runId = (await mlflow.post<{ run: { info: { run_id: string } } }>("runs/create", { experiment_id: "0" })).body.run
      .info.run_id;
  });

  const expectMessage = (res: { status: number; body: unknown }, status: number, message: string) => {
    expect(res.body).toEqual({ error_code: status === 404 ? expect.any(String) : "INVALID_PARAMETER_VALUE", message });
    expect(res.status).toBe(status);
  };

  describe.each([
    ["mlflow", () => mlflow],
    ["tracker", () => tracker],
  ])("through the %s paths", (_segment, api) => {
    it("names a value of the wrong type with Python's type name", async () => {
      expectMessage(
        await api().post("experiments/create", { name: 123 }),
        400,
        "Invalid value 123 for parameter 'name' supplied. Hint: Value was of type 'int'. See the API docs for more information about request parameters.",
      );
      expectMessage(
        await api().post("runs/set-tag", { run_id: runId, key: "k", value: ["a"] }),
        400,
        `Invalid value ["a"] for parameter 'value' supplied. Hint: Value was of type 'list'. See the API docs for more information about request parameters.`,
      );
    });

    it("cuts a long or deeply nested wrong value short in the message", async () => {
      let deep: unknown = 1;
      for (let i = 0; i < 2000; i++) deep = { a: deep };
      const res = await api().post("experiments/create", { name: deep });
      expect(res.status).toBe(400);
      const message = (res.body as { message: string }).message;
      expect(message).toMatch(
        /^Invalid value \{"a":\{"a":.*\.\.\..* for parameter 'name' supplied\. Hint: Value was of type 'dict'\. See the API docs/,
      );
      expect(message.length).toBeLessThan(400);
    });

    it("names a missing required parameter", async () => {
      expectMessage(
        await api().post("experiments/create", {}),
        400,
        "Missing value for required parameter 'name'. See the API docs for more information about request parameters.",
      );
    });

    it("names an out-of-range max_results", async () => {
      expectMessage(
        await api().post("runs/search", { experiment_ids: ["0"], max_results: 123456789 }),
        400,
        "Invalid value 123456789 for parameter 'max_results' supplied.",
      );
    });

    it("says a model version must be an integer", async () => {
      await api().post("registered-models/create", { name: `m-${_segment}` });
      expectMessage(
        await api().get("model-versions/get", { name: `m-${_segment}`, version: "one" }),
        400,
        "Model version must be an integer",
      );
    });
  });

  it("names the requested path in a 404, not the rewritten one", async () => {
    for (const path of [
      "/api/2.0/mlflow/runs/nope",
      "/api/2.0/preview/mlflow/experiments/nope",
      "/ajax-api/2.0/mlflow/nope",
      "/api/2.0/tracker/nope",
    ]) {
      expect(await call(suite.url, "POST", path, {})).toMatchObject({
        status: 404,
        body: { error_code: "ENDPOINT_NOT_FOUND", message: `No operation at POST ${path}` },
      });
    }
  });

  it("applies MLflow 2.x's value limits through MLflow's paths: params 6000 characters, tags 8000", async () => {
    expect(
      (await mlflow.post("runs/log-parameter", { run_id: runId, key: "p6000", value: "v".repeat(6000) })).status,
    ).toBe(200);
    expectMessage(
      await mlflow.post("runs/log-parameter", { run_id: runId, key: "p6001", value: "v".repeat(6001) }),
      400,
      "'Param value' exceeds the maximum length of 6000 characters",
    );
    expect((await mlflow.post("runs/set-tag", { run_id: runId, key: "t8000", value: "v".repeat(8000) })).status).toBe(
      200,
    );
    expectMessage(
      await mlflow.post("runs/set-tag", { run_id: runId, key: "t8001", value: "v".repeat(8001) }),
      400,
      "'value' exceeds the maximum length of 8000 characters",
    );
    const batch = await mlflow.post("runs/log-batch", {
      run_id: runId,
      params: [{ key: "bp", value: "v".repeat(6000) }],
      tags: [{ key: "bt", value: "v".repeat(8000) }],
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expectMessage(
      await mlflow.post("runs/log-batch", {
        run_id: runId,
        tags: [
          { key: "ok", value: "v" },
          { key: "bt2", value: "v".repeat(8001) },
        ],
      }),
      400,
      "'tags[1].value' exceeds the maximum length of 8000 characters",
    );
    const created = await mlflow.post("runs/create", {
      experiment_id: "0",
      tags: [{ key: "long", value: "v".repeat(8000) }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });

  it("keeps revision C's documented limits through tracker's paths", async () => {
    expect(
      (await tracker.post("runs/log-parameter", { run_id: runId, key: "tp", value: "v".repeat(1000) })).status,
    ).toBe(400);
    expect((await tracker.post("runs/set-tag", { run_id: runId, key: "tt", value: "v".repeat(6000) })).status).toBe(
      400,
    );
    expectMessage(
      await tracker.post("runs/log-batch", { run_id: runId, params: [{ key: "tbp", value: "v".repeat(251) }] }),
      400,
      "'params[0].value' exceeds the maximum length of 250 characters",
    );
  });
});
