import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, testDatabases, useTestServer } from "@tracker/testing";
import * as systemTagsMigration from "../../db/migrations/0007_system_tags_mlflow.js";

interface Tag {
  key: string;
  value: string;
}
interface Run {
  info: { run_id: string; run_name: string; user_id: string; experiment_id: string };
  data: { tags: Tag[] };
}
interface PreviewRun {
  info: { run_uuid: string; name: string; user_id: string; source_name?: string; source_type?: string; tags: Tag[] };
  data: { tags: Tag[] };
}

const tagMap = (tags: Tag[]) => Object.fromEntries(tags.map((t) => [t.key, t.value]));
const foreign = (tags: Tag[], prefix: string) => tags.filter((t) => t.key.startsWith(`${prefix}.`)).map((t) => t.key);

/** The system-tag prefix follows the path a request came through (core/system-tags.ts). */
describe.each(testDatabases())("system tags per path on a default server on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const ajax = apiAt(() => suite.url, "../ajax-api/2.0/mlflow");
  const tracker = suite.api;
  const previewTracker = suite.preview;
  const previewMlflow = apiAt(() => suite.url, "2.0/preview/mlflow");
  let experimentId: string;
  let parentId: string;
  let runId: string;

  beforeAll(async () => {
    experimentId = (await tracker.post<{ experiment_id: string }>("experiments/create", { name: "system-tags" })).body
      .experiment_id;
    parentId = (await tracker.post<{ run: Run }>("runs/create", { experiment_id: experimentId })).body.run.info.run_id;
    const created = await mlflow.post<{ run: Run }>("runs/create", {
      experiment_id: experimentId,
      start_time: 1,
      tags: [
        { key: "mlflow.runName", value: "hello" },
        { key: "mlflow.user", value: "alice" },
        { key: "mlflow.source.name", value: "train.py" },
        { key: "mlflow.source.type", value: "LOCAL" },
        { key: "mlflow.source.git.commit", value: "abc123" },
        { key: "mlflow.parentRunId", value: parentId },
        { key: "mlflow.note.content", value: "# notes" },
        { key: "team", value: "ml" },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    runId = created.body.run.info.run_id;
    expect(created.body.run.info).toMatchObject({ run_name: "hello", user_id: "alice" });
    expect(foreign(created.body.run.data.tags, "tracker")).toEqual([]);
  });

  const expectedTags = (prefix: string) => ({
    [`${prefix}.runName`]: "hello",
    [`${prefix}.user`]: "alice",
    [`${prefix}.source.name`]: "train.py",
    [`${prefix}.source.type`]: "LOCAL",
    [`${prefix}.source.git.commit`]: "abc123",
    [`${prefix}.parentRunId`]: parentId,
    [`${prefix}.note.content`]: "# notes",
    team: "ml",
  });

  it("runs/get answers mlflow.* on MLflow's paths and tracker.* on tracker's", async () => {
    for (const [api, prefix, other] of [
      [mlflow, "mlflow", "tracker"],
      [ajax, "mlflow", "tracker"],
      [tracker, "tracker", "mlflow"],
    ] as const) {
      const res = await api.get<{ run: Run }>("runs/get", { run_id: runId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.run.info).toMatchObject({ run_name: "hello", user_id: "alice" });
      expect(tagMap(res.body.run.data.tags)).toEqual(expectedTags(prefix));
      expect(foreign(res.body.run.data.tags, other)).toEqual([]);
    }
  });

  it("the preview paths read the source fields from the system tags and present them per path", async () => {
    for (const [api, prefix] of [
      [previewMlflow, "mlflow"],
      [previewTracker, "tracker"],
    ] as const) {
      const res = await api.get<{ run: PreviewRun }>("runs/get", { run_uuid: runId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.run.info).toMatchObject({ name: "hello", source_name: "train.py", source_type: "LOCAL" });
      expect(tagMap(res.body.run.info.tags)).toEqual(expectedTags(prefix));
      expect(tagMap(res.body.run.data.tags)).toEqual(expectedTags(prefix));
    }
  });

  it("runs/search filters and orders on the system tags in the path's namespace", async () => {
    for (const [api, prefix] of [
      [mlflow, "mlflow"],
      [tracker, "tracker"],
    ] as const) {
      const res = await api.post<{ runs: Run[] }>("runs/search", {
        experiment_ids: [experimentId],
        filter: `tags."${prefix}.runName" = 'hello' AND tags.\`${prefix}.user\` LIKE 'ali%'`,
        order_by: [`tags.\`${prefix}.user\` DESC`],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.runs.map((r) => r.info.run_id)).toEqual([runId]);
      expect(tagMap(res.body.runs[0].data.tags)).toEqual(expectedTags(prefix));
      const other = prefix === "mlflow" ? "tracker" : "mlflow";
      const none = await api.post<{ runs?: Run[] }>("runs/search", {
        experiment_ids: [experimentId],
        filter: `tags."${other}.runName" = 'hello'`,
      });
      expect(none.body.runs ?? []).toEqual([]);
    }
  });

  it("a tag written through one path reads right through the other, and set/delete translate too", async () => {
    expect(
      (await tracker.post("runs/set-tag", { run_id: runId, key: "tracker.note.content", value: "new" })).status,
    ).toBe(200);
    const viaMlflow = await mlflow.get<{ run: Run }>("runs/get", { run_id: runId });
    expect(tagMap(viaMlflow.body.run.data.tags)["mlflow.note.content"]).toBe("new");
    expect((await mlflow.post("runs/delete-tag", { run_id: runId, key: "mlflow.note.content" })).status).toBe(200);
    const viaTracker = await tracker.get<{ run: Run }>("runs/get", { run_id: runId });
    expect(tagMap(viaTracker.body.run.data.tags)["tracker.note.content"]).toBeUndefined();
    // Renaming through log-batch with MLflow's run-name tag.
    expect(
      (await mlflow.post("runs/log-batch", { run_id: runId, tags: [{ key: "mlflow.runName", value: "renamed" }] }))
        .status,
    ).toBe(200);
    const renamed = await tracker.get<{ run: Run }>("runs/get", { run_id: runId });
    expect(renamed.body.run.info.run_name).toBe("renamed");
    expect(tagMap(renamed.body.run.data.tags)["tracker.runName"]).toBe("renamed");
    await mlflow.post("runs/set-tag", { run_id: runId, key: "mlflow.runName", value: "hello" });
    expect((await tracker.get<{ run: Run }>("runs/get", { run_id: runId })).body.run.info.run_name).toBe("hello");
  });

  it("a run created through tracker's paths shows MLflow's names through MLflow's paths", async () => {
    const created = await tracker.post<{ run: Run }>("runs/create", {
      experiment_id: experimentId,
      run_name: "from-tracker",
      user_id: "bob",
      tags: [{ key: "tracker.parentRunId", value: parentId }],
    });
    const id = created.body.run.info.run_id;
    expect(foreign(created.body.run.data.tags, "mlflow")).toEqual([]);
    const res = await mlflow.get<{ run: Run }>("runs/get", { run_id: id });
    expect(tagMap(res.body.run.data.tags)).toEqual({
      "mlflow.runName": "from-tracker",
      "mlflow.user": "bob",
      "mlflow.parentRunId": parentId,
    });
  });
});

describe.each(testDatabases())("--namespace mlflow: one prefix on every path on %s", (kind) => {
  const suite = useTestServer(kind, { namespace: "mlflow" });

  it("answers mlflow.* on tracker's paths too", async () => {
    const created = await suite.api.post<{ run: Run }>("runs/create", {
      experiment_id: "0",
      tags: [{ key: "mlflow.runName", value: "one" }],
    });
    expect(created.body.run.info.run_name).toBe("one");
    expect(tagMap(created.body.run.data.tags)).toEqual({ "mlflow.runName": "one" });
  });
});

describe.each(testDatabases())("0007_system_tags_mlflow on %s", (kind) => {
  const suite = useTestServer(kind);

  it("renames tracker.* run tags to mlflow.*, the tracker.* value winning a clash", async () => {
    const db = suite.server.database.knex;
    const run = await suite.api.post<{ run: Run }>("runs/create", { experiment_id: "0", run_name: "old" });
    const id = run.body.run.info.run_id;
    await db("tags").where({ run_uuid: id }).delete();
    await db("tags").insert([
      { run_uuid: id, key: "tracker.runName", value: "old" },
      { run_uuid: id, key: "mlflow.runName", value: "client-sent" },
      { run_uuid: id, key: "tracker.user", value: "ada" },
      { run_uuid: id, key: "mlflow.source.name", value: "x.py" },
      { run_uuid: id, key: "other", value: "1" },
    ]);
    await systemTagsMigration.up(db);
    const rows = await db("tags").where({ run_uuid: id }).orderBy("key").select("key", "value");
    expect(rows).toEqual([
      { key: "mlflow.runName", value: "old" },
      { key: "mlflow.source.name", value: "x.py" },
      { key: "mlflow.user", value: "ada" },
      { key: "other", value: "1" },
    ]);
    const res = await suite.api.get<{ run: Run }>("runs/get", { run_id: id });
    expect(tagMap(res.body.run.data.tags)).toEqual({
      "tracker.runName": "old",
      "tracker.source.name": "x.py",
      "tracker.user": "ada",
      other: "1",
    });
  });
});
