import { describe, expect, it } from "vitest";
import { testDatabases } from "@tracker/testing";
import { useRegistrySuite, type ModelVersion } from "./registry.test-kit.js";

/** The model registry under concurrent requests (revision C): version numbers, stage archiving, unique names. */
describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const { api, tracking, createModel, createVersion, searchVersions } = useRegistrySuite(kind);

  // ----- concurrency -----

  describe("concurrency", () => {
    it("numbers 20 concurrent version creates 1..20 without gap or duplicate", async () => {
      await createModel("cc-create");
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.post<{ model_version: ModelVersion }>("model-versions/create", {
            name: "cc-create",
            source: `s3://cc/${i}`,
          }),
        ),
      );
      for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
      const numbers = results.map((r) => Number(r.body.model_version.version)).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const listed = await searchVersions({ filter: "name = 'cc-create'", order_by: "version" });
      expect(listed.body.model_versions.map((v) => v.version)).toEqual(numbers.map(String));
      expect((await createVersion("cc-create")).version).toBe("21");
    });

    it("leaves exactly one Production version after 10 concurrent archiving transitions", async () => {
      await createModel("cc-stage");
      for (let i = 0; i < 10; i += 1) await createVersion("cc-stage");
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post<{ model_version: ModelVersion }>("model-versions/transition-stage", {
            name: "cc-stage",
            version: String(i + 1),
            stage: "Production",
            archive_existing_versions: true,
          }),
        ),
      );
      for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
      const listed = await searchVersions({ filter: "name = 'cc-stage'" });
      const stages = listed.body.model_versions.map((v) => v.current_stage);
      expect(stages.filter((s) => s === "Production")).toHaveLength(1);
      expect(stages.filter((s) => s === "Archived")).toHaveLength(9);
      const latest = await tracking.post<{ model_versions: ModelVersion[] }>("registered-models/get-latest-versions", {
        name: "cc-stage",
        stages: ["Production"],
      });
      expect(latest.body.model_versions).toHaveLength(1);
    });

    it("lets only one of four concurrent creates of a name succeed", async () => {
      const results = await Promise.all(
        [0, 1, 2, 3].map(() => api.post("registered-models/create", { name: "cc-name" })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      for (const r of results.filter((x) => x.status === 400))
        expect(r.body).toMatchObject({ error_code: "RESOURCE_ALREADY_EXISTS" });
    });
  });
});
