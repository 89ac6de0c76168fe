import { describe, expect, it } from "vitest";
import { apiAt, testDatabases, useTestServer, type Api } from "@tracker/testing";
import * as entityTagsMigration from "../../db/migrations/0010_entity_tags_mlflow.js";

interface Tag {
  key: string;
  value: string;
}

const tagMap = (tags: Tag[] | undefined) => Object.fromEntries((tags ?? []).map((t) => [t.key, t.value]));
/** Tags as MLflow's clients and UI write them on experiments and models, and one plain tag. */
const mlflowTags = [
  { key: "mlflow.note.content", value: "# about" },
  { key: "mlflow.experimentType", value: "MLFLOW_EXPERIMENT" },
  { key: "team", value: "ml" },
];
const asTracker = { "tracker.note.content": "# about", "tracker.experimentType": "MLFLOW_EXPERIMENT", team: "ml" };
const asMlflow = tagMap(mlflowTags);

/**
 * Tags of experiments, registered models, model versions and logged models follow the request's
 * path as run tags do (core/request-tags.ts): `mlflow.*` on MLflow's paths is `tracker.*` on
 * tracker's, whichever path wrote it; writes, deletes and search filters through either path meet.
 */
describe.each(testDatabases())("entity tags per path on a default server on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const tracker = suite.api;
  const trackerRegistry = suite.preview;

  /** One tag operation each way: set through one path, read through the other, delete back. */
  async function setReadDelete(
    read: (api: Api) => Promise<Record<string, string>>,
    set: (api: Api, tag: Tag) => Promise<{ status: number }>,
    remove: (api: Api, key: string) => Promise<{ status: number }>,
    apis: { mlflow: Api; tracker: Api },
  ) {
    expect((await set(apis.tracker, { key: "tracker.note.content", value: "changed" })).status).toBe(200);
    expect((await read(apis.mlflow))["mlflow.note.content"]).toBe("changed");
    expect((await read(apis.tracker))["tracker.note.content"]).toBe("changed");
    expect((await remove(apis.tracker, "tracker.experimentType")).status).toBe(200);
    expect((await read(apis.mlflow))["mlflow.experimentType"]).toBeUndefined();
    expect((await set(apis.mlflow, { key: "mlflow.source.name", value: "nb" })).status).toBe(200);
    expect((await read(apis.tracker))["tracker.source.name"]).toBe("nb");
    expect((await remove(apis.mlflow, "mlflow.source.name")).status).toBe(200);
    expect((await read(apis.tracker))["tracker.source.name"]).toBeUndefined();
  }

  it("experiments: create, get, search, set and delete through either path", async () => {
    const created = await mlflow.post<{ experiment_id: string }>("experiments/create", {
      name: "entity-tags",
      tags: mlflowTags,
    });
    expect(created.status).toBe(200);
    const id = created.body.experiment_id;
    type Got = { experiment: { tags?: Tag[] } };
    const read = async (api: Api) =>
      tagMap((await api.get<Got>("experiments/get", { experiment_id: id })).body.experiment.tags);
    expect(await read(mlflow)).toEqual(asMlflow);
    expect(await read(tracker)).toEqual(asTracker);
    const byName = await tracker.get<Got>("experiments/get-by-name", { experiment_name: "entity-tags" });
    expect(tagMap(byName.body.experiment.tags)).toEqual(asTracker);

    type Found = { experiments?: Array<{ experiment_id: string; tags?: Tag[] }> };
    const search = async (api: Api, filter: string) =>
      (await api.post<Found>("experiments/search", { filter, max_results: 10 })).body.experiments ?? [];
    const found = await search(tracker, "tags.`tracker.note.content` = '# about'");
    expect(found.map((e) => e.experiment_id)).toEqual([id]);
    expect(tagMap(found[0]?.tags)).toEqual(asTracker);
    expect((await search(mlflow, "tags.`mlflow.note.content` = '# about'")).map((e) => e.experiment_id)).toEqual([id]);
    expect(await search(tracker, "tags.`mlflow.note.content` = '# about'")).toEqual([]);

    await setReadDelete(
      read,
      (api, tag) => api.post("experiments/set-experiment-tag", { experiment_id: id, ...tag }),
      (api, key) => api.post("experiments/delete-experiment-tag", { experiment_id: id, key }),
      { mlflow, tracker },
    );
  });

  it("registered models and model versions: create, get, search, set and delete through either path", async () => {
    expect((await mlflow.post("registered-models/create", { name: "tagged", tags: mlflowTags })).status).toBe(200);
    const version = await mlflow.post<{ model_version: { tags?: Tag[] } }>("model-versions/create", {
      name: "tagged",
      source: "s3://b/m",
      tags: mlflowTags,
    });
    expect(tagMap(version.body.model_version.tags)).toEqual(asMlflow);

    type GotModel = { registered_model: { tags?: Tag[]; latest_versions?: Array<{ tags?: Tag[] }> } };
    const readModel = async (api: Api) =>
      tagMap((await api.get<GotModel>("registered-models/get", { name: "tagged" })).body.registered_model.tags);
    type GotVersion = { model_version: { tags?: Tag[] } };
    const readVersion = async (api: Api) =>
      tagMap(
        (await api.get<GotVersion>("model-versions/get", { name: "tagged", version: "1" })).body.model_version.tags,
      );
    expect(await readModel(mlflow)).toEqual(asMlflow);
    expect(await readModel(trackerRegistry)).toEqual(asTracker);
    expect(await readVersion(trackerRegistry)).toEqual(asTracker);
    const model = await trackerRegistry.get<GotModel>("registered-models/get", { name: "tagged" });
    expect(tagMap(model.body.registered_model.latest_versions?.[0]?.tags)).toEqual(asTracker);

    // Registry searches filter on attributes only (tags are not searchable there yet): their answers' tags.
    type Models = { registered_models?: Array<{ name: string; tags?: Tag[] }> };
    const models = await trackerRegistry.get<Models>("registered-models/search", { filter: "name = 'tagged'" });
    expect(tagMap(models.body.registered_models?.[0]?.tags)).toEqual(asTracker);
    type Versions = { model_versions?: Array<{ version: string; tags?: Tag[] }> };
    const versions = await trackerRegistry.get<Versions>("model-versions/search", { filter: "name = 'tagged'" });
    expect(tagMap(versions.body.model_versions?.[0]?.tags)).toEqual(asTracker);

    await setReadDelete(
      readModel,
      (api, tag) => api.post("registered-models/set-tag", { name: "tagged", ...tag }),
      (api, key) => api.delete("registered-models/delete-tag", { name: "tagged", key }),
      { mlflow, tracker: trackerRegistry },
    );
    await setReadDelete(
      readVersion,
      (api, tag) => api.post("model-versions/set-tag", { name: "tagged", version: "1", ...tag }),
      (api, key) => api.delete("model-versions/delete-tag", { name: "tagged", version: "1", key }),
      { mlflow, tracker: trackerRegistry },
    );
  });

  it("logged models: create, get, search, set and delete through either path", async () => {
    const experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "lm-tags" })).body
      .experiment_id;
    type Model = { model: { info: { model_id: string; tags?: Tag[] } } };
    const created = await mlflow.post<Model>("logged-models", {
      experiment_id: experimentId,
      name: "m",
      tags: [...mlflowTags, { key: "mlflow.user", value: "alice" }],
    });
    expect(created.status).toBe(200);
    const id = created.body.model.info.model_id;
    expect(tagMap(created.body.model.info.tags)).toEqual({ ...asMlflow, "mlflow.user": "alice" });
    const read = async (api: Api) => tagMap((await api.get<Model>(`logged-models/${id}`)).body.model.info.tags);
    expect(await read(tracker)).toEqual({ ...asTracker, "tracker.user": "alice" });

    type Found = { models?: Array<{ info: { model_id: string; tags?: Tag[] } }> };
    const search = async (api: Api, filter: string) =>
      (await api.post<Found>("logged-models/search", { experiment_ids: [experimentId], filter })).body.models ?? [];
    const found = await search(tracker, "tags.`tracker.user` = 'alice'");
    expect(found.map((m) => m.info.model_id)).toEqual([id]);
    expect(tagMap(found[0]?.info.tags)["tracker.user"]).toBe("alice");
    expect((await search(mlflow, "tags.`mlflow.user` = 'alice'")).map((m) => m.info.model_id)).toEqual([id]);
    expect(await search(tracker, "tags.`mlflow.user` = 'alice'")).toEqual([]);

    await setReadDelete(
      read,
      (api, tag) => api.patch(`logged-models/${id}/tags`, { tags: [tag] }),
      (api, key) => api.delete(`logged-models/${id}/tags/${encodeURIComponent(key)}`),
      { mlflow, tracker },
    );
  });

  it("the server's own mlflow.modelVersions tag on a logged model reads as tracker.modelVersions on tracker's path", async () => {
    const experimentId = (await mlflow.post<{ experiment_id: string }>("experiments/create", { name: "lm-versions" }))
      .body.experiment_id;
    type Model = { model: { info: { model_id: string; tags?: Tag[] } } };
    const id = (await tracker.post<Model>("logged-models", { experiment_id: experimentId })).body.model.info.model_id;
    await trackerRegistry.post("registered-models/create", { name: "from-lm" });
    const version = await trackerRegistry.post("model-versions/create", {
      name: "from-lm",
      source: `models:/${id}`,
      model_id: id,
    });
    expect(version.status, JSON.stringify(version.body)).toBe(200);
    const read = async (api: Api) => tagMap((await api.get<Model>(`logged-models/${id}`)).body.model.info.tags);
    expect(JSON.parse((await read(tracker))["tracker.modelVersions"] ?? "null")).toEqual([
      { name: "from-lm", version: 1 },
    ]);
    expect((await read(mlflow))["mlflow.modelVersions"]).toBeDefined();
  });
});

describe.each(testDatabases())("0010_entity_tags_mlflow on %s", (kind) => {
  const suite = useTestServer(kind);

  it("renames tracker.* tags of experiments, models, versions and logged models to mlflow.*, tracker.* winning a clash", async () => {
    const db = suite.server.database.knex;
    const experimentId = (await suite.api.post<{ experiment_id: string }>("experiments/create", { name: "old-tags" }))
      .body.experiment_id;
    await suite.preview.post("registered-models/create", { name: "old-tags" });
    await suite.preview.post("model-versions/create", { name: "old-tags", source: "s3://b/m" });
    const modelId = (
      await suite.api.post<{ model: { info: { model_id: string } } }>("logged-models", { experiment_id: experimentId })
    ).body.model.info.model_id;
    const owners = [
      { table: "experiment_tags", owner: { experiment_id: Number(experimentId) } },
      { table: "registered_model_tags", owner: { name: "old-tags" } },
      { table: "model_version_tags", owner: { name: "old-tags", version: 1 } },
      { table: "logged_model_tags", owner: { model_id: modelId } },
    ];
    for (const { table, owner } of owners) {
      await db(table).where(owner).delete();
      await db(table).insert(
        [
          { key: "tracker.note.content", value: "old" },
          { key: "mlflow.note.content", value: "client-sent" },
          { key: "tracker.user", value: "ada" },
          { key: "mlflow.source.name", value: "x.py" },
          { key: "other", value: "1" },
        ].map((tag) => ({ ...owner, ...tag })),
      );
    }
    await entityTagsMigration.up(db);
    for (const { table, owner } of owners) {
      expect(await db(table).where(owner).orderBy("key").select("key", "value"), table).toEqual([
        { key: "mlflow.note.content", value: "old" },
        { key: "mlflow.source.name", value: "x.py" },
        { key: "mlflow.user", value: "ada" },
        { key: "other", value: "1" },
      ]);
    }
    const experiment = await suite.api.get<{ experiment: { tags: Tag[] } }>("experiments/get", {
      experiment_id: experimentId,
    });
    expect(tagMap(experiment.body.experiment.tags)).toEqual({
      "tracker.note.content": "old",
      "tracker.source.name": "x.py",
      "tracker.user": "ada",
      other: "1",
    });
  });
});
