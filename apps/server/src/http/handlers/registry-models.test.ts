import { describe, expect, it } from "vitest";
import { testDatabases, apiAt } from "@tracker/testing";
import { tick, strictApiAt, useRegistrySuite, type ModelVersion, type RegisteredModel } from "./registry.test-kit.js";

/** Registered models over HTTP (revision C): create, get, rename, update, delete and their tags. */
describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const {
    suite,
    api,
    createModel,
    getModel,
    createVersion,
    getVersion,
    expectError,
    searchModels,
    searchVersions,
    names,
  } = useRegistrySuite(kind);

  // ----- registered models: create, get -----

  describe("registered-models/create and get", () => {
    it("creates a model with a description and tags, without user_id, and reads it back", async () => {
      const before = Date.now();
      const created = await createModel("rm-create", {
        description: "fraud model",
        tags: [
          { key: "team", value: "risk" },
          { key: "env", value: "prod" },
        ],
      });
      expect(created).toEqual({
        name: "rm-create",
        creation_timestamp: expect.any(Number),
        last_updated_timestamp: created.creation_timestamp,
        description: "fraud model",
        latest_versions: [],
        tags: [
          { key: "env", value: "prod" },
          { key: "team", value: "risk" },
        ],
      });
      expect(created).not.toHaveProperty("user_id");
      expect(created.creation_timestamp).toBeGreaterThanOrEqual(before);
      expect(await getModel("rm-create")).toEqual(created);
    });

    it("creates a model with only a name: empty description, no tags", async () => {
      const created = await createModel("rm-bare");
      expect(created).toMatchObject({ description: "", tags: [], latest_versions: [] });
    });

    it("keeps the last value when a tag key repeats at creation", async () => {
      const created = await createModel("rm-dup-tags", {
        tags: [
          { key: "k", value: "1" },
          { key: "k", value: "2" },
        ],
      });
      expect(created.tags).toEqual([{ key: "k", value: "2" }]);
    });

    it("refuses a taken name with RESOURCE_ALREADY_EXISTS", async () => {
      await createModel("rm-taken");
      const res = await api.post("registered-models/create", { name: "rm-taken" });
      expectError(res, 400, "RESOURCE_ALREADY_EXISTS", "Registered Model (name=rm-taken) already exists.");
    });

    it("refuses a missing, empty or over-long name and bad tags with INVALID_PARAMETER_VALUE", async () => {
      expectError(await api.post("registered-models/create", {}), 400, "INVALID_PARAMETER_VALUE", /name/);
      expectError(await api.post("registered-models/create", { name: "" }), 400, "INVALID_PARAMETER_VALUE", /name/);
      expectError(
        await api.post("registered-models/create", { name: "n".repeat(501) }),
        400,
        "INVALID_PARAMETER_VALUE",
        /500/,
      );
      expect((await api.post("registered-models/create", { name: "n".repeat(500) })).status).toBe(200);
      const bad = [
        [{ key: "../up", value: "v" }],
        [{ key: "k".repeat(251), value: "v" }],
        [{ key: "k", value: "v".repeat(5001) }],
        [{ key: "k", value: "é".repeat(2501) }],
        [{ value: "no key" }],
      ];
      for (const tags of bad) {
        expectError(
          await api.post("registered-models/create", { name: "rm-bad-tags", tags }),
          400,
          "INVALID_PARAMETER_VALUE",
        );
      }
      expectError(await api.get("registered-models/get", { name: "rm-bad-tags" }), 404, "RESOURCE_DOES_NOT_EXIST");
    });

    it("answers 404 RESOURCE_DOES_NOT_EXIST for an unknown model and 400 without a name", async () => {
      expectError(
        await api.get("registered-models/get", { name: "rm-nope" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
        "Registered Model with name=rm-nope not found",
      );
      expectError(await api.get("registered-models/get", {}), 400, "INVALID_PARAMETER_VALUE", /name/);
    });

    it("handles names with spaces, slashes, quotes, wildcards and non-ASCII letters", async () => {
      const name = "my model/ü 'v' 100%_";
      await createModel(name);
      expect((await getModel(name)).name).toBe(name);
      expect((await createVersion(name)).version).toBe("1");
      expect((await getVersion(name, "1")).name).toBe(name);
      const byName = await searchModels({ filter: "name = 'my model/ü ''v'' 100%_'" });
      expect(names(byName.body)).toEqual([name]);
      const versions = await searchVersions({ filter: "name = 'my model/ü ''v'' 100%_'" });
      expect(versions.body.model_versions.map((v) => v.version)).toEqual(["1"]);
      expect((await api.delete("registered-models/delete", { name })).status).toBe(200);
    });

    it("is served under the mlflow alias too", async () => {
      await createModel("rm-alias");
      const mlflow = strictApiAt(suite.url, "2.0/preview/mlflow");
      const res = await mlflow.get<{ registered_model: RegisteredModel }>("registered-models/get", {
        name: "rm-alias",
      });
      expect(res.status).toBe(200);
      expect(res.body.registered_model.name).toBe("rm-alias");
      const plain = await apiAt(suite.url, "2.0/mlflow").post<{ model_versions: ModelVersion[] }>(
        "registered-models/get-latest-versions",
        {
          name: "rm-alias",
        },
      );
      expect(plain.status).toBe(200);
      expect(plain.body.model_versions).toEqual([]);
    });
  });

  // ----- rename, update, delete -----

  describe("registered-models/rename", () => {
    it("renames a model; its versions and tags follow and the timestamp moves", async () => {
      const model = await createModel("rm-rename-old", { tags: [{ key: "a", value: "1" }] });
      await createVersion("rm-rename-old", { tags: [{ key: "vt", value: "x" }] });
      await createVersion("rm-rename-old");
      await tick();
      const res = await api.post<{ registered_model: RegisteredModel }>("registered-models/rename", {
        name: "rm-rename-old",
        new_name: "rm-rename-new",
      });
      expect(res.status).toBe(200);
      expect(res.body.registered_model).toMatchObject({ name: "rm-rename-new", tags: [{ key: "a", value: "1" }] });
      expect(res.body.registered_model.last_updated_timestamp).toBeGreaterThan(model.last_updated_timestamp);
      expect(res.body.registered_model.latest_versions).toEqual([
        expect.objectContaining({ name: "rm-rename-new", version: "2" }),
      ]);
      const v1 = await getVersion("rm-rename-new", "1");
      expect(v1).toMatchObject({ name: "rm-rename-new", tags: [{ key: "vt", value: "x" }] });
      expectError(await api.get("registered-models/get", { name: "rm-rename-old" }), 404, "RESOURCE_DOES_NOT_EXIST");
      expectError(
        await api.get("model-versions/get", { name: "rm-rename-old", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      // Numbering continues under the new name.
      expect((await createVersion("rm-rename-new")).version).toBe("3");
    });

    it("refuses a taken new name with RESOURCE_ALREADY_EXISTS and leaves both models alone", async () => {
      await createModel("rm-rename-a");
      await createModel("rm-rename-b");
      await createVersion("rm-rename-a");
      const res = await api.post("registered-models/rename", { name: "rm-rename-a", new_name: "rm-rename-b" });
      expectError(res, 400, "RESOURCE_ALREADY_EXISTS", "Registered Model (name=rm-rename-b) already exists.");
      expect((await getModel("rm-rename-a")).latest_versions).toHaveLength(1);
      expect((await getModel("rm-rename-b")).latest_versions).toHaveLength(0);
    });

    it("returns the model unchanged without new_name or with its own name", async () => {
      const model = await createModel("rm-rename-same");
      await tick();
      const without = await api.post<{ registered_model: RegisteredModel }>("registered-models/rename", {
        name: "rm-rename-same",
      });
      expect(without.status).toBe(200);
      expect(without.body.registered_model).toEqual(model);
      const same = await api.post<{ registered_model: RegisteredModel }>("registered-models/rename", {
        name: "rm-rename-same",
        new_name: "rm-rename-same",
      });
      expect(same.body.registered_model).toEqual(model);
    });

    it("answers 404 for an unknown model and 400 for a missing name or empty new_name", async () => {
      expectError(
        await api.post("registered-models/rename", { name: "rm-rename-nope", new_name: "x" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.post("registered-models/rename", { new_name: "x" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /name/,
      );
      await createModel("rm-rename-empty");
      expectError(
        await api.post("registered-models/rename", { name: "rm-rename-empty", new_name: "" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /new_name/,
      );
    });
  });

  describe("registered-models/update", () => {
    it("replaces the description and moves last_updated_timestamp; without description nothing changes", async () => {
      const model = await createModel("rm-update", { description: "old" });
      await tick();
      const res = await api.patch<{ registered_model: RegisteredModel }>("registered-models/update", {
        name: "rm-update",
        description: "new",
      });
      expect(res.status).toBe(200);
      expect(res.body.registered_model.description).toBe("new");
      expect(res.body.registered_model.last_updated_timestamp).toBeGreaterThan(model.last_updated_timestamp);
      const unchanged = await api.patch<{ registered_model: RegisteredModel }>("registered-models/update", {
        name: "rm-update",
      });
      expect(unchanged.body.registered_model).toEqual(res.body.registered_model);
      const cleared = await api.patch<{ registered_model: RegisteredModel }>("registered-models/update", {
        name: "rm-update",
        description: "",
      });
      expect(cleared.body.registered_model.description).toBe("");
    });

    it("answers 404 for an unknown model and 400 without a name", async () => {
      expectError(
        await api.patch("registered-models/update", { name: "rm-update-nope", description: "x" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.patch("registered-models/update", { description: "x" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /name/,
      );
    });
  });

  describe("registered-models/delete", () => {
    it("deletes the model with its versions and tags; the name can be used afresh", async () => {
      await createModel("rm-delete", { tags: [{ key: "t", value: "1" }] });
      await createVersion("rm-delete", { tags: [{ key: "vt", value: "1" }] });
      await createVersion("rm-delete");
      const res = await api.delete("registered-models/delete", { name: "rm-delete" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expectError(await api.get("registered-models/get", { name: "rm-delete" }), 404, "RESOURCE_DOES_NOT_EXIST");
      expectError(
        await api.get("model-versions/get", { name: "rm-delete", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expect((await searchVersions({ filter: "name = 'rm-delete'" })).body.model_versions).toEqual([]);
      const again = await createModel("rm-delete");
      expect(again.tags).toEqual([]);
      const v = await createVersion("rm-delete");
      expect(v).toMatchObject({ version: "1", tags: [] });
    });

    it("answers 404 for an unknown model and 400 without a name", async () => {
      expectError(
        await api.delete("registered-models/delete", { name: "rm-delete-nope" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(await api.delete("registered-models/delete", {}), 400, "INVALID_PARAMETER_VALUE", /name/);
    });
  });

  // ----- model tags -----

  describe("registered-models/set-tag and delete-tag", () => {
    it("sets, replaces and deletes tags by exact key, moving last_updated_timestamp", async () => {
      const model = await createModel("rm-tags");
      await tick();
      expect((await api.post("registered-models/set-tag", { name: "rm-tags", key: "a", value: "1" })).body).toEqual({});
      await api.post("registered-models/set-tag", { name: "rm-tags", key: "ab", value: "2" });
      let got = await getModel("rm-tags");
      expect(got.tags).toEqual([
        { key: "a", value: "1" },
        { key: "ab", value: "2" },
      ]);
      expect(got.last_updated_timestamp).toBeGreaterThan(model.last_updated_timestamp);
      await api.post("registered-models/set-tag", { name: "rm-tags", key: "a", value: "replaced" });
      await api.post("registered-models/set-tag", { name: "rm-tags", key: "empty", value: "" });
      got = await getModel("rm-tags");
      expect(got.tags).toEqual([
        { key: "a", value: "replaced" },
        { key: "ab", value: "2" },
        { key: "empty", value: "" },
      ]);
      await tick();
      const del = await api.delete("registered-models/delete-tag", { name: "rm-tags", key: "a" });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({});
      const afterDelete = await getModel("rm-tags");
      expect(afterDelete.tags).toEqual([
        { key: "ab", value: "2" },
        { key: "empty", value: "" },
      ]);
      expect(afterDelete.last_updated_timestamp).toBeGreaterThan(got.last_updated_timestamp);
      // No wildcards: "a%" and "%" delete nothing; neither does a key the model lacks.
      for (const key of ["a", "missing"]) {
        expect((await api.delete("registered-models/delete-tag", { name: "rm-tags", key })).status).toBe(200);
      }
      expectError(
        await api.delete("registered-models/delete-tag", { name: "rm-tags", key: "a%" }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
      expect((await getModel("rm-tags")).tags).toHaveLength(2);
    });

    it("answers 404 for an unknown model and 400 for missing fields or bad keys and values", async () => {
      expectError(
        await api.post("registered-models/set-tag", { name: "rm-tags-nope", key: "k", value: "v" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("registered-models/delete-tag", { name: "rm-tags-nope", key: "k" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      await createModel("rm-tags-bad");
      expectError(
        await api.post("registered-models/set-tag", { name: "rm-tags-bad", key: "k" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /value/,
      );
      expectError(
        await api.post("registered-models/set-tag", { name: "rm-tags-bad", value: "v" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /key/,
      );
      expectError(
        await api.post("registered-models/set-tag", { key: "k", value: "v" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /name/,
      );
      expectError(
        await api.post("registered-models/set-tag", { name: "rm-tags-bad", key: "/abs", value: "v" }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
      expectError(
        await api.post("registered-models/set-tag", { name: "rm-tags-bad", key: "k", value: "v".repeat(5001) }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
      expect(
        (
          await api.post("registered-models/set-tag", {
            name: "rm-tags-bad",
            key: "k".repeat(250),
            value: "v".repeat(5000),
          })
        ).status,
      ).toBe(200);
      expectError(
        await api.delete("registered-models/delete-tag", { name: "rm-tags-bad" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /key/,
      );
      expectError(
        await api.delete("registered-models/delete-tag", { name: "rm-tags-bad", key: "k".repeat(251) }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
    });
  });
});
