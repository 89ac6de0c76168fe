import { describe, expect, it } from "vitest";
import { apiAt, call, testDatabases, useTestServer } from "@tracker/testing";

interface Version {
  name: string;
  version: string;
  aliases?: string[];
}
interface Model {
  name: string;
  aliases?: Array<{ alias: string; version: string }>;
  latest_versions: Version[];
}

/** Model aliases (MLflow 2.3+) through MLflow's paths, as MLflow 2.x's Python client sends them, and through tracker's. */
describe.each(testDatabases())("model aliases on %s", (kind) => {
  const suite = useTestServer(kind);
  const mlflow = apiAt(() => suite.url, "2.0/mlflow");
  const tracker = suite.api;

  const registerModel = async (name: string, versions: number) => {
    expect((await mlflow.post("registered-models/create", { name })).status).toBe(200);
    for (let i = 0; i < versions; i++) {
      expect((await mlflow.post("model-versions/create", { name, source: `runs:/abc/model${i}` })).status).toBe(200);
    }
  };

  it("sets, reads, moves and deletes an alias; models and versions list their aliases under MLflow's paths", async () => {
    await registerModel("fraud", 3);
    expect(
      await mlflow.post("registered-models/alias", { name: "fraud", alias: "champion", version: "2" }),
    ).toMatchObject({ status: 200, body: {} });
    expect(
      (await mlflow.post("registered-models/alias", { name: "fraud", alias: "challenger", version: "3" })).status,
    ).toBe(200);

    const byAlias = await mlflow.get<{ model_version: Version }>("registered-models/alias", {
      name: "fraud",
      alias: "champion",
    });
    expect(byAlias.status).toBe(200);
    expect(byAlias.body.model_version).toMatchObject({ name: "fraud", version: "2", aliases: ["champion"] });
    // Also under the preview prefix and /ajax-api, as MLflow serves its registry.
    for (const prefix of ["2.0/preview/mlflow", "2.0/mlflow"]) {
      const res = await call<{ model_version: Version }>(
        suite.url,
        "GET",
        `/${prefix === "2.0/mlflow" ? "ajax-api" : "api"}/${prefix}/registered-models/alias?name=fraud&alias=champion`,
      );
      expect(res.body.model_version?.version, prefix).toBe("2");
    }

    const model = await mlflow.get<{ registered_model: Model }>("registered-models/get", { name: "fraud" });
    expect(model.body.registered_model.aliases).toEqual([
      { alias: "challenger", version: "3" },
      { alias: "champion", version: "2" },
    ]);
    const v3 = await mlflow.get<{ model_version: Version }>("model-versions/get", { name: "fraud", version: "3" });
    expect(v3.body.model_version.aliases).toEqual(["challenger"]);
    const search = await mlflow.get<{ model_versions: Version[] }>("model-versions/search", {
      filter: "name='fraud'",
      order_by: "version_number DESC",
    });
    expect(search.body.model_versions.map((v) => [v.version, v.aliases])).toEqual([
      ["3", ["challenger"]],
      ["2", ["champion"]],
      ["1", []],
    ]);

    // Moving an alias: still one version per alias.
    expect(
      (await mlflow.post("registered-models/alias", { name: "fraud", alias: "champion", version: "3" })).status,
    ).toBe(200);
    const moved = await mlflow.get<{ model_version: Version }>("model-versions/get", { name: "fraud", version: "3" });
    expect(moved.body.model_version.aliases).toEqual(["challenger", "champion"]);
    expect(
      (await mlflow.get<{ model_version: Version }>("model-versions/get", { name: "fraud", version: "2" })).body
        .model_version.aliases,
    ).toEqual([]);

    // DELETE with a JSON body (MLflow's Python client) and with a query string.
    expect((await mlflow.delete("registered-models/alias", { name: "fraud", alias: "challenger" })).status).toBe(200);
    const viaQuery = await fetch(`${suite.url}/api/2.0/mlflow/registered-models/alias?name=fraud&alias=champion`, {
      method: "DELETE",
    });
    expect(viaQuery.status).toBe(200);
    expect(
      (await mlflow.get<{ registered_model: Model }>("registered-models/get", { name: "fraud" })).body.registered_model
        .aliases,
    ).toEqual([]);
    // Deleting an alias the model does not have changes nothing.
    expect((await mlflow.delete("registered-models/alias", { name: "fraud", alias: "champion" })).status).toBe(200);
  });

  it("revision C's answers under tracker's paths stay as the revision defines them; the extension answers with aliases", async () => {
    await registerModel("plain", 1);
    expect((await tracker.post("registered-models/alias", { name: "plain", alias: "prod", version: "1" })).status).toBe(
      200,
    );
    const model = await apiAt(suite.url, "2.0/preview/tracker").get<{ registered_model: Model }>(
      "registered-models/get",
      { name: "plain" },
    );
    expect(model.body.registered_model).not.toHaveProperty("aliases");
    expect(model.body.registered_model.latest_versions[0]).not.toHaveProperty("aliases");
    const byAlias = await tracker.get<{ model_version: Version }>("registered-models/alias", {
      name: "plain",
      alias: "prod",
    });
    expect(byAlias.body.model_version).toMatchObject({ version: "1", aliases: ["prod"] });
  });

  it("lists a model's aliases in alphabetical order (the web UI's list), with its refusals", async () => {
    await registerModel("listed", 2);
    expect(await tracker.get("registered-models/aliases", { name: "listed" })).toMatchObject({
      status: 200,
      body: { aliases: [] },
    });
    await tracker.post("registered-models/alias", { name: "listed", alias: "zeta", version: "1" });
    await tracker.post("registered-models/alias", { name: "listed", alias: "alpha", version: "2" });
    expect((await tracker.get("registered-models/aliases", { name: "listed" })).body).toEqual({
      aliases: [
        { alias: "alpha", version: "2" },
        { alias: "zeta", version: "1" },
      ],
    });
    expect(await tracker.get("registered-models/aliases", { name: "nope" })).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "Registered Model with name=nope not found" },
    });
    expect(await tracker.get("registered-models/aliases", {})).toMatchObject({
      status: 400,
      body: { error_code: "INVALID_PARAMETER_VALUE" },
    });
  });

  it("deleting a version drops its aliases; deleting or renaming the model carries them along", async () => {
    await registerModel("churn", 2);
    await mlflow.post("registered-models/alias", { name: "churn", alias: "a", version: "1" });
    await mlflow.post("registered-models/alias", { name: "churn", alias: "b", version: "2" });
    expect((await mlflow.delete("model-versions/delete", { name: "churn", version: "1" })).status).toBe(200);
    expect(await mlflow.get("registered-models/alias", { name: "churn", alias: "a" })).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "Registered model alias a not found." },
    });
    expect((await mlflow.post("registered-models/rename", { name: "churn", new_name: "churn2" })).status).toBe(200);
    expect(
      (await mlflow.get<{ model_version: Version }>("registered-models/alias", { name: "churn2", alias: "b" })).body
        .model_version.version,
    ).toBe("2");
    expect((await mlflow.delete("registered-models/delete", { name: "churn2" })).status).toBe(200);
    await registerModel("churn2", 1);
    expect((await mlflow.get("registered-models/alias", { name: "churn2", alias: "b" })).status).toBe(404);
  });

  it.each([
    // MLflow's handler refuses an empty required field before its store sees it.
    [
      "",
      "Missing value for required parameter 'alias'. See the API docs for more information about request parameters.",
    ],
    [
      "has space",
      "Invalid alias name: 'has space'. Names may only contain alphanumerics, underscores (_), and dashes (-).",
    ],
    ["x".repeat(256), "'Registered model alias name' exceeds the maximum length of 255 characters"],
    ["Latest", "'latest' alias name (case insensitive) is reserved."],
    ["v12", "Version alias name 'v12' is reserved."],
    ["V3", "Version alias name 'V3' is reserved."],
  ])("refuses the alias %j with MLflow's message", async (alias, message) => {
    await registerModel(`rules-${alias.length}-${alias.slice(0, 5).replace(/\W/g, "_")}`, 1);
    const res = await mlflow.post("registered-models/alias", {
      name: `rules-${alias.length}-${alias.slice(0, 5).replace(/\W/g, "_")}`,
      alias,
      version: "1",
    });
    expect(res).toMatchObject({ status: 400, body: { error_code: "INVALID_PARAMETER_VALUE", message } });
  });

  it("names missing models and versions as MLflow does", async () => {
    await registerModel("lonely", 1);
    expect(await mlflow.post("registered-models/alias", { name: "nope", alias: "x", version: "1" })).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "Registered Model with name=nope not found" },
    });
    expect(await mlflow.post("registered-models/alias", { name: "lonely", alias: "x", version: "7" })).toMatchObject({
      status: 404,
      body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "Model Version (name=lonely, version=7) not found" },
    });
    expect(await mlflow.post("registered-models/alias", { name: "lonely", alias: "x", version: "one" })).toMatchObject({
      status: 400,
      body: { error_code: "INVALID_PARAMETER_VALUE", message: "Model version must be an integer" },
    });
  });

  it("keeps one version per alias when two clients set it at once", async () => {
    await registerModel("race", 4);
    const results = await Promise.all(
      ["1", "2", "3", "4"].map((version) =>
        mlflow.post("registered-models/alias", { name: "race", alias: "best", version }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const model = await mlflow.get<{ registered_model: Model }>("registered-models/get", { name: "race" });
    expect(model.body.registered_model.aliases).toHaveLength(1);
  });
});
