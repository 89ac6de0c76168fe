import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";

/** The rules of 0004 live in the database: they hold even for writes that bypass the core. */
describe.each(testDatabases())("0004_aliases_datasets constraints on %s", (kind) => {
  const suite = useTestServer(kind);

  it("keeps one version per alias per model, drops aliases with their version, and follows a rename", async () => {
    const db = suite.server.database.knex;
    await db("registered_models").insert({
      name: "m",
      creation_timestamp: 1,
      last_updated_timestamp: 1,
      next_version: 3,
    });
    for (const version of [1, 2]) {
      await db("model_versions").insert({
        name: "m",
        version,
        creation_timestamp: 1,
        last_updated_timestamp: 1,
        last_stage_transition: 1,
        source: "s",
      });
    }
    await db("registered_model_aliases").insert({ name: "m", alias: "champion", version: 1 });
    await expect(
      db("registered_model_aliases").insert({ name: "m", alias: "champion", version: 2 }),
    ).rejects.toMatchObject({ code: "23505" });
    await expect(
      db("registered_model_aliases").insert({ name: "m", alias: "ghost", version: 9 }),
    ).rejects.toMatchObject({ code: "23503" });
    await db("registered_models").where({ name: "m" }).update({ name: "m2" });
    expect(await db("registered_model_aliases").select("name", "alias", "version")).toEqual([
      { name: "m2", alias: "champion", version: 1 },
    ]);
    await db("model_versions").where({ name: "m2", version: 1 }).delete();
    expect(await db("registered_model_aliases").select("alias")).toEqual([]);
  });

  it("stores a dataset once per (experiment, name, digest)", async () => {
    const db = suite.server.database.knex;
    const row = { experiment_id: 0, name: "iris", digest: "d1", source_type: "local", source: "{}" };
    await db("datasets").insert({ ...row, dataset_uuid: "a".repeat(32) });
    await expect(db("datasets").insert({ ...row, dataset_uuid: "b".repeat(32) })).rejects.toMatchObject({
      code: "23505",
    });
    await db("datasets").insert({ ...row, digest: "d2", dataset_uuid: "c".repeat(32) });
  });
});
