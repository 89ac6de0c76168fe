import { testDatabases, useTestServer } from "@tracker/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { TrackerClient } from "./client.js";
import { trackerError } from "./testing/expect-error.js";
import { RegistryClient } from "./registry.js";

describe.each(testDatabases())("TrackerClient model registry on %s", (kind) => {
  const suite = useTestServer(kind);
  let client: TrackerClient;
  let runId: string;

  beforeAll(async () => {
    client = new TrackerClient({ baseUrl: suite.url });
    const experimentId = await client.createExperiment("registry-exp");
    runId = (await client.createRun(experimentId)).info.run_id;
  });

  it("creates, gets, renames, describes and deletes a registered model", async () => {
    const created = await client.createRegisteredModel("fraud-detector", {
      description: "first",
      tags: { team: "risk" },
    });
    expect(created).toMatchObject({
      name: "fraud-detector",
      description: "first",
      tags: [{ key: "team", value: "risk" }],
      latest_versions: [],
    });
    expect(created.creation_timestamp).toBeGreaterThan(0);

    expect((await client.getRegisteredModel("fraud-detector")).description).toBe("first");
    expect((await client.updateRegisteredModel("fraud-detector", "second")).description).toBe("second");
    expect((await client.renameRegisteredModel("fraud-detector", "fraud-detector-v2")).name).toBe("fraud-detector-v2");
    expect(await trackerError(client.getRegisteredModel("fraud-detector"))).toMatchObject({
      errorCode: "RESOURCE_DOES_NOT_EXIST",
      status: 404,
    });

    await client.deleteRegisteredModel("fraud-detector-v2");
    expect(await trackerError(client.getRegisteredModel("fraud-detector-v2"))).toMatchObject({
      errorCode: "RESOURCE_DOES_NOT_EXIST",
    });
  });

  it("refuses a duplicate name with RESOURCE_ALREADY_EXISTS", async () => {
    await client.createRegisteredModel("dup-model");
    expect(await trackerError(client.createRegisteredModel("dup-model"))).toMatchObject({
      errorCode: "RESOURCE_ALREADY_EXISTS",
      status: 400,
    });
  });

  it("sets and deletes registered model tags", async () => {
    await client.createRegisteredModel("tagged-model");
    await client.setRegisteredModelTag("tagged-model", "owner", "ada");
    await client.setRegisteredModelTag("tagged-model", "tmp", "x");
    await client.deleteRegisteredModelTag("tagged-model", "tmp");
    expect((await client.getRegisteredModel("tagged-model")).tags).toEqual([{ key: "owner", value: "ada" }]);
  });

  it("creates versions, reads them, describes and tags them", async () => {
    await client.createRegisteredModel("versioned");
    const v1 = await client.createModelVersion("versioned", "s3://bucket/model/1", {
      runId,
      description: "one",
      tags: { k: "v" },
    });
    expect(v1).toMatchObject({
      name: "versioned",
      version: "1",
      current_stage: "None",
      status: "READY",
      source: "s3://bucket/model/1",
      run_id: runId,
      description: "one",
    });
    const v2 = await client.createModelVersion("versioned", "s3://bucket/model/2");
    expect(v2.version).toBe("2");

    expect((await client.getModelVersion("versioned", 1)).tags).toEqual([{ key: "k", value: "v" }]);
    expect((await client.updateModelVersion("versioned", "2", "two")).description).toBe("two");
    expect(await client.getModelVersionDownloadUri("versioned", 2)).toBe("s3://bucket/model/2");

    await client.setModelVersionTag("versioned", 2, "quality", "good");
    await client.setModelVersionTag("versioned", 2, "tmp", "x");
    await client.deleteModelVersionTag("versioned", 2, "tmp");
    expect((await client.getModelVersion("versioned", 2)).tags).toEqual([{ key: "quality", value: "good" }]);

    await client.deleteModelVersion("versioned", 1);
    expect(await trackerError(client.getModelVersion("versioned", 1))).toMatchObject({
      errorCode: "RESOURCE_DOES_NOT_EXIST",
      status: 404,
    });
    expect((await client.createModelVersion("versioned", "s3://bucket/model/3")).version).toBe("3");
  });

  it("moves versions between stages and reports the latest per stage", async () => {
    await client.createRegisteredModel("staged");
    for (let i = 1; i <= 3; i++) await client.createModelVersion("staged", `s3://staged/${i}`);

    expect((await client.transitionModelVersionStage("staged", 1, "production")).current_stage).toBe("Production");
    await client.transitionModelVersionStage("staged", 2, "Staging");
    const promoted = await client.transitionModelVersionStage("staged", 3, "Production", {
      archiveExistingVersions: true,
    });
    expect(promoted.current_stage).toBe("Production");
    expect((await client.getModelVersion("staged", 1)).current_stage).toBe("Archived");

    const latest = await client.getLatestVersions("staged");
    expect(Object.fromEntries(latest.map((v) => [v.current_stage, v.version]))).toEqual({
      Archived: "1",
      Staging: "2",
      Production: "3",
    });
    expect((await client.getLatestVersions("staged", ["Production"])).map((v) => v.version)).toEqual(["3"]);
    expect((await client.getRegisteredModel("staged")).latest_versions.length).toBe(3);

    expect(
      await trackerError(client.transitionModelVersionStage("staged", 2, "None", { archiveExistingVersions: true })),
    ).toMatchObject({
      errorCode: "INVALID_PARAMETER_VALUE",
      status: 400,
    });
  });

  it("iterates searchRegisteredModels over every page, with a quoted filter", async () => {
    for (let i = 0; i < 5; i++) await client.createRegisteredModel(`searchable-${i}`);
    await client.createRegisteredModel("it's-quoted");

    const names = await client
      .searchRegisteredModels({ filter: "name LIKE 'searchable-'", orderBy: ["name DESC"], pageSize: 2 })
      .toArray();
    expect(names.map((m) => m.name)).toEqual([
      "searchable-4",
      "searchable-3",
      "searchable-2",
      "searchable-1",
      "searchable-0",
    ]);

    let pages = 0;
    for await (const page of client
      .searchRegisteredModels({ filter: "name ILIKE 'SEARCHABLE'", pageSize: 2 })
      .pages()) {
      pages += 1;
      expect(page.items.length).toBeLessThanOrEqual(2);
    }
    expect(pages).toBe(3);

    expect(
      (await client.searchRegisteredModels({ filter: "name = 'it''s-quoted'" }).toArray()).map((m) => m.name),
    ).toEqual(["it's-quoted"]);
  });

  it("iterates searchModelVersions over every page", async () => {
    await client.createRegisteredModel("many-versions");
    for (let i = 1; i <= 5; i++) await client.createModelVersion("many-versions", `s3://many/${i}`, { runId });

    const versions = await client
      .searchModelVersions({ filter: "name = 'many-versions'", orderBy: ["version DESC"], pageSize: 2 })
      .toArray();
    expect(versions.map((v) => v.version)).toEqual(["5", "4", "3", "2", "1"]);

    const byRun = await client.searchModelVersions({ filter: `run_id = '${runId}'` }).toArray();
    expect(byRun.filter((v) => v.name === "many-versions")).toHaveLength(5);
  });

  it("works as a RegistryClient on its own", async () => {
    const registry = new RegistryClient(suite.url);
    await registry.createRegisteredModel("standalone");
    expect((await registry.getRegisteredModel("standalone")).name).toBe("standalone");
  });
});
