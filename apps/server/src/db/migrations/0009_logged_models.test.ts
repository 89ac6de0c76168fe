import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

/** The rules of 0009 live in the database: they hold even for writes that bypass the core. */
describe.each(testDatabases())("0009_logged_models on %s", (kind) => {
  const suite = useTestServer(kind);

  it("keys a model's points, needs the model, and goes with it; metrics rows keep NULL linkage", async () => {
    const db = suite.server.database.knex;
    const model = {
      model_id: `m-${"a".repeat(32)}`,
      experiment_id: 0,
      name: "m",
      artifact_location: "x",
      creation_timestamp_ms: 1,
      last_updated_timestamp_ms: 1,
      status: 1,
    };
    await db("logged_models").insert(model);
    const point = { model_id: model.model_id, key: "k", value: 1, timestamp: 1, step: 0, run_id: "r" };
    await db("logged_model_metrics").insert(point);
    await expect(db("logged_model_metrics").insert({ ...point, value: 2 })).rejects.toMatchObject({ code: "23505" });
    await expect(
      db("logged_model_metrics").insert({ ...point, model_id: `m-${"b".repeat(32)}` }),
    ).rejects.toMatchObject({ code: "23503" });
    await db("logged_model_tags").insert({ model_id: model.model_id, key: "t", value: "v" });
    await db("logged_models").where({ model_id: model.model_id }).delete();
    expect(Number((await db("logged_model_metrics").count({ n: "*" }))[0]?.n)).toBe(0);
    expect(Number((await db("logged_model_tags").count({ n: "*" }))[0]?.n)).toBe(0);
    const columns = await db("metrics").columnInfo();
    for (const name of ["model_id", "dataset_name", "dataset_digest"]) expect(columns[name]?.nullable).toBe(true);
  });
});
