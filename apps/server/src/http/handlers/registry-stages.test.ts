import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@tracker/testing";
import { tick, useRegistrySuite, type ModelVersion } from "./registry.test-kit.js";

/** Model version stages over HTTP (revision C): transition-stage and the latest version per stage. */
describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const { api, tracking, createModel, getModel, createVersion, getVersion, transition, expectError } =
    useRegistrySuite(kind);

  describe("model-versions/transition-stage", () => {
    it("moves a version to a stage given in any case, answering the canonical spelling", async () => {
      await createModel("tr-case");
      const v = await createVersion("tr-case");
      await tick();
      for (const [input, canonical] of [
        ["staging", "Staging"],
        ["PRODUCTION", "Production"],
        ["archived", "Archived"],
        ["none", "None"],
        ["Production", "Production"],
      ]) {
        const moved = await transition("tr-case", "1", input);
        expect(moved.current_stage).toBe(canonical);
      }
      const got = await getVersion("tr-case", "1");
      expect(got.current_stage).toBe("Production");
      expect(got.last_updated_timestamp).toBeGreaterThan(v.last_updated_timestamp);
    });

    it("archives the other versions in the target stage with archive_existing_versions", async () => {
      await createModel("tr-archive");
      for (let i = 0; i < 4; i += 1) await createVersion("tr-archive");
      await transition("tr-archive", "1", "Production");
      await transition("tr-archive", "2", "Production");
      await transition("tr-archive", "3", "Staging");
      // Without archiving, two versions may share a stage.
      expect((await getVersion("tr-archive", "1")).current_stage).toBe("Production");
      const moved = await transition("tr-archive", "4", "production", true);
      expect(moved.current_stage).toBe("Production");
      const stages = await Promise.all(
        ["1", "2", "3", "4"].map(async (v) => (await getVersion("tr-archive", v)).current_stage),
      );
      expect(stages).toEqual(["Archived", "Archived", "Staging", "Production"]);
      // Moving a version into the stage it holds, archiving, keeps it there.
      expect((await transition("tr-archive", "4", "Production", true)).current_stage).toBe("Production");
      const model = await getModel("tr-archive");
      expect(model.latest_versions.map((v) => [v.current_stage, v.version])).toEqual([
        ["Staging", "3"],
        ["Production", "4"],
        ["Archived", "2"],
      ]);
    });

    it("refuses archive_existing_versions for targets other than Staging and Production", async () => {
      await createModel("tr-archive-bad");
      await createVersion("tr-archive-bad");
      for (const stage of ["Archived", "None", "none"]) {
        const res = await api.post("model-versions/transition-stage", {
          name: "tr-archive-bad",
          version: "1",
          stage,
          archive_existing_versions: true,
        });
        expectError(res, 400, "INVALID_PARAMETER_VALUE", /archive_existing_versions/);
      }
      expect((await getVersion("tr-archive-bad", "1")).current_stage).toBe("None");
    });

    it("refuses an unknown stage and missing fields with INVALID_PARAMETER_VALUE", async () => {
      await createModel("tr-bad");
      await createVersion("tr-bad");
      expectError(
        await api.post("model-versions/transition-stage", {
          name: "tr-bad",
          version: "1",
          stage: "Bogus",
          archive_existing_versions: false,
        }),
        400,
        "INVALID_PARAMETER_VALUE",
        /stage/,
      );
      expectError(
        await api.post("model-versions/transition-stage", {
          name: "tr-bad",
          version: "1",
          archive_existing_versions: false,
        }),
        400,
        "INVALID_PARAMETER_VALUE",
        /stage/,
      );
      expectError(
        await api.post("model-versions/transition-stage", { name: "tr-bad", version: "1", stage: "Staging" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /archive_existing_versions/,
      );
      expectError(
        await api.post("model-versions/transition-stage", {
          name: "tr-bad",
          stage: "Staging",
          archive_existing_versions: false,
        }),
        400,
        "INVALID_PARAMETER_VALUE",
        /version/,
      );
    });

    it("answers 404 for an unknown model or version", async () => {
      await createModel("tr-missing");
      const body = { stage: "Staging", archive_existing_versions: false };
      expectError(
        await api.post("model-versions/transition-stage", { name: "tr-missing", version: "1", ...body }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
        "Model Version (name=tr-missing, version=1) not found",
      );
      expectError(
        await api.post("model-versions/transition-stage", { name: "tr-missing-nope", version: "1", ...body }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
      );
    });
  });

  // ----- latest versions -----

  describe("latest versions", () => {
    beforeAll(async () => {
      await createModel("lv");
      for (let i = 0; i < 6; i += 1) await createVersion("lv");
      await transition("lv", "1", "Production");
      await transition("lv", "2", "Production");
      await transition("lv", "3", "Staging");
      await transition("lv", "4", "Archived");
      // 5 and 6 stay in None.
    });

    it("lists the highest READY version of each stage in the model", async () => {
      const model = await getModel("lv");
      expect(model.latest_versions.map((v) => [v.current_stage, v.version])).toEqual([
        ["None", "6"],
        ["Staging", "3"],
        ["Production", "2"],
        ["Archived", "4"],
      ]);
    });

    it("get-latest-versions without stages returns every stage, None included", async () => {
      for (const body of [{ name: "lv" }, { name: "lv", stages: [] }]) {
        const res = await tracking.post<{ model_versions: ModelVersion[] }>(
          "registered-models/get-latest-versions",
          body,
        );
        expect(res.status).toBe(200);
        expect(res.body.model_versions.map((v) => [v.current_stage, v.version])).toEqual([
          ["None", "6"],
          ["Staging", "3"],
          ["Production", "2"],
          ["Archived", "4"],
        ]);
      }
    });

    it("get-latest-versions with stages, in any case, including None", async () => {
      const ask = async (stages: string[]) => {
        const res = await tracking.post<{ model_versions: ModelVersion[] }>("registered-models/get-latest-versions", {
          name: "lv",
          stages,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.model_versions.map((v) => [v.current_stage, v.version]);
      };
      expect(await ask(["production"])).toEqual([["Production", "2"]]);
      expect(await ask(["None"])).toEqual([["None", "6"]]);
      expect(await ask(["Staging", "STAGING", "none"])).toEqual([
        ["None", "6"],
        ["Staging", "3"],
      ]);
      await createModel("lv-empty");
      await createVersion("lv-empty");
      const res = await tracking.post<{ model_versions: ModelVersion[] }>("registered-models/get-latest-versions", {
        name: "lv-empty",
        stages: ["Production"],
      });
      expect(res.body.model_versions).toEqual([]);
    });

    it("get-latest-versions answers 404 for an unknown model and 400 for a bad stage or missing name", async () => {
      expectError(
        await tracking.post("registered-models/get-latest-versions", { name: "lv-nope" }),
        404,
        "RESOURCE_DOES_NOT_EXIST",
        "Registered Model with name=lv-nope not found",
      );
      expectError(
        await tracking.post("registered-models/get-latest-versions", { name: "lv", stages: ["Bogus"] }),
        400,
        "INVALID_PARAMETER_VALUE",
        /stage/,
      );
      expectError(
        await tracking.post("registered-models/get-latest-versions", {}),
        400,
        "INVALID_PARAMETER_VALUE",
        /name/,
      );
    });
  });
});
