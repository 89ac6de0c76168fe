import { describe, expect, it } from "vitest";
import { testDatabases } from "@tracker/testing";
import { tick, useRegistrySuite, type ModelVersion } from "./registry.test-kit.js";

/** Model versions over HTTP (revision C): create, get, update, delete, get-download-uri and their tags. */
describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const { api, createModel, getModel, createVersion, getVersion, transition, expectError } = useRegistrySuite(kind);

  // ----- model versions -----

  describe("model-versions/create, get, update, delete, get-download-uri", () => {
    it("creates READY versions in stage None numbered 1, 2, ... with their fields", async () => {
      const model = await createModel("mv-create");
      await tick();
      const v1 = await createVersion("mv-create", {
        source: "s3://b/m1",
        run_id: "0123456789abcdef0123456789abcdef",
        run_link: "http://other/#/runs/1",
        description: "first",
        tags: [
          { key: "z", value: "26" },
          { key: "a", value: "1" },
        ],
      });
      expect(v1).toEqual({
        name: "mv-create",
        version: "1",
        creation_timestamp: expect.any(Number),
        last_updated_timestamp: v1.creation_timestamp,
        user_id: "",
        current_stage: "None",
        description: "first",
        source: "s3://b/m1",
        run_id: "0123456789abcdef0123456789abcdef",
        status: "READY",
        status_message: "",
        tags: [
          { key: "a", value: "1" },
          { key: "z", value: "26" },
        ],
        run_link: "http://other/#/runs/1",
      });
      const v2 = await createVersion("mv-create", { source: "s3://b/m2" });
      expect(v2).toMatchObject({ version: "2", description: "", run_id: "", run_link: "", tags: [] });
      expect(await getVersion("mv-create", "1")).toEqual(v1);
      // Creating a version moves the model's timestamp; latest_versions shows the newest None version.
      const after = await getModel("mv-create");
      expect(after.last_updated_timestamp).toBeGreaterThan(model.last_updated_timestamp);
      expect(after.latest_versions).toEqual([v2]);
    });

    it("never reuses the number of a deleted version", async () => {
      await createModel("mv-numbers");
      await createVersion("mv-numbers");
      await createVersion("mv-numbers");
      const del = await api.delete("model-versions/delete", { name: "mv-numbers", version: "2" });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({});
      expect((await createVersion("mv-numbers")).version).toBe("3");
      await api.delete("model-versions/delete", { name: "mv-numbers", version: "3" });
      await api.delete("model-versions/delete", { name: "mv-numbers", version: "1" });
      expect((await createVersion("mv-numbers")).version).toBe("4");
    });

    it("refuses a version of an unknown model (404) and missing name or source (400)", async () => {
      expectError(
        await api.post("model-versions/create", { name: "mv-nope", source: "s3://x" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
        "Registered Model with name=mv-nope not found",
      );
      await createModel("mv-create-bad");
      expectError(
        await api.post("model-versions/create", { name: "mv-create-bad" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /source/,
      );
      expectError(
        await api.post("model-versions/create", { source: "s3://x" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /name/,
      );
      expectError(
        await api.post("model-versions/create", { name: "mv-create-bad", source: "" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /source/,
      );
      expectError(
        await api.post("model-versions/create", {
          name: "mv-create-bad",
          source: "s3://x",
          tags: [{ key: "..", value: "v" }],
        }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
      // Nothing was created by the failed attempts: the first version is still 1.
      expect((await createVersion("mv-create-bad")).version).toBe("1");
    });

    it("answers 404 for an unknown model or version and 400 for a missing or non-numeric version", async () => {
      await createModel("mv-get");
      await createVersion("mv-get");
      expectError(
        await api.get("model-versions/get", { name: "mv-get", version: "2" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
        "Model Version (name=mv-get, version=2) not found",
      );
      expectError(
        await api.get("model-versions/get", { name: "mv-get-nope", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.get("model-versions/get", { name: "mv-get", version: "9999999999999" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.get("model-versions/get", { name: "mv-get", version: "one" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
      expectError(await api.get("model-versions/get", { name: "mv-get" }), 400, "INVALID_PARAMETER_VALUE", /version/);
      expectError(await api.get("model-versions/get", { version: "1" }), 400, "INVALID_PARAMETER_VALUE", /name/);
    });

    it("updates the description, moving last_updated_timestamp; without description nothing changes", async () => {
      await createModel("mv-update");
      const v = await createVersion("mv-update");
      await tick();
      const res = await api.patch<{ model_version: ModelVersion }>("model-versions/update", {
        name: "mv-update",
        version: "1",
        description: "better",
      });
      expect(res.status).toBe(200);
      expect(res.body.model_version.description).toBe("better");
      expect(res.body.model_version.last_updated_timestamp).toBeGreaterThan(v.last_updated_timestamp);
      const same = await api.patch<{ model_version: ModelVersion }>("model-versions/update", {
        name: "mv-update",
        version: "1",
      });
      expect(same.body.model_version).toEqual(res.body.model_version);
      expectError(
        await api.patch("model-versions/update", { name: "mv-update", version: "5", description: "x" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.patch("model-versions/update", { name: "mv-update-nope", version: "1", description: "x" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.patch("model-versions/update", { name: "mv-update", description: "x" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
      expectError(
        await api.patch("model-versions/update", { name: "mv-update", version: "v1" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
    });

    it("deletes a version with its tags, moving the model's timestamp; 404 when missing", async () => {
      await createModel("mv-delete");
      await createVersion("mv-delete", { tags: [{ key: "k", value: "v" }] });
      await transition("mv-delete", "1", "Production");
      const before = await getModel("mv-delete");
      expect(before.latest_versions.map((v) => v.current_stage)).toEqual(["Production"]);
      await tick();
      expect((await api.delete("model-versions/delete", { name: "mv-delete", version: "1" })).status).toBe(200);
      const after = await getModel("mv-delete");
      expect(after.latest_versions).toEqual([]);
      expect(after.last_updated_timestamp).toBeGreaterThan(before.last_updated_timestamp);
      expectError(
        await api.get("model-versions/get", { name: "mv-delete", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("model-versions/delete", { name: "mv-delete", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("model-versions/delete", { name: "mv-delete-nope", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("model-versions/delete", { name: "mv-delete" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
    });

    it("gives the source as the download URI", async () => {
      await createModel("mv-uri");
      await createVersion("mv-uri", { source: "gs://models/uri/1" });
      const res = await api.get("model-versions/get-download-uri", { name: "mv-uri", version: "1" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ artifact_uri: "gs://models/uri/1" });
      expectError(
        await api.get("model-versions/get-download-uri", { name: "mv-uri", version: "2" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.get("model-versions/get-download-uri", { name: "mv-uri-nope", version: "1" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.get("model-versions/get-download-uri", { name: "mv-uri" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
    });
  });

  describe("model-versions/set-tag and delete-tag", () => {
    it("sets, replaces and deletes version tags by exact key, moving the version's timestamp", async () => {
      await createModel("mvt");
      const v = await createVersion("mvt");
      await tick();
      expect(
        (await api.post("model-versions/set-tag", { name: "mvt", version: "1", key: "a", value: "1" })).body,
      ).toEqual({});
      await api.post("model-versions/set-tag", { name: "mvt", version: "1", key: "ab", value: "2" });
      await api.post("model-versions/set-tag", { name: "mvt", version: "1", key: "a", value: "3" });
      let got = await getVersion("mvt", "1");
      expect(got.tags).toEqual([
        { key: "a", value: "3" },
        { key: "ab", value: "2" },
      ]);
      expect(got.last_updated_timestamp).toBeGreaterThan(v.last_updated_timestamp);
      await tick();
      const del = await api.delete("model-versions/delete-tag", { name: "mvt", version: "1", key: "a" });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({});
      const afterDelete = await getVersion("mvt", "1");
      expect(afterDelete.tags).toEqual([{ key: "ab", value: "2" }]);
      expect(afterDelete.last_updated_timestamp).toBeGreaterThan(got.last_updated_timestamp);
      // A key the version lacks: nothing changes, the timestamp included.
      await tick();
      expect(
        (await api.delete("model-versions/delete-tag", { name: "mvt", version: "1", key: "missing" })).status,
      ).toBe(200);
      got = await getVersion("mvt", "1");
      expect(got).toEqual(afterDelete);
      // The model's latest_versions carry the version's tags.
      expect((await getModel("mvt")).latest_versions[0].tags).toEqual([{ key: "ab", value: "2" }]);
    });

    it("answers 404 for an unknown model or version and 400 for bad input", async () => {
      await createModel("mvt-bad");
      await createVersion("mvt-bad");
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-bad", version: "2", key: "k", value: "v" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-nope", version: "1", key: "k", value: "v" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("model-versions/delete-tag", { name: "mvt-bad", version: "2", key: "k" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.delete("model-versions/delete-tag", { name: "mvt-nope", version: "1", key: "k" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-bad", version: "1", key: "k" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /value/,
      );
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-bad", key: "k", value: "v" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-bad", version: "1", key: "k".repeat(251), value: "v" }),
        400,
        "INVALID_PARAMETER_VALUE",
      );
      expectError(
        await api.post("model-versions/set-tag", { name: "mvt-bad", version: "1", key: "k", value: "€".repeat(1700) }),
        400,
        "INVALID_PARAMETER_VALUE",
        /5000 bytes/,
      );
      expectError(
        await api.delete("model-versions/delete-tag", { name: "mvt-bad", version: "1" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /key/,
      );
      expectError(
        await api.delete("model-versions/delete-tag", { name: "mvt-bad", version: "x", key: "k" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
    });
  });
});
