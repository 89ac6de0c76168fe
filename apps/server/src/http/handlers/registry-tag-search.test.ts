import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@tracker/testing";
import { strictApiAt, useRegistrySuite, type ModelPage, type VersionPage } from "./registry.test-kit.js";

/** What MLflow 3's Python client adds to every registered-models/search (mlflow/prompt/registry_utils.py). */
const NOT_A_PROMPT = "tag.`mlflow.prompt.is_prompt` != 'true'";

/**
 * Tag filters of registered-models/search and model-versions/search (`tags.<key>` / `tag.<key>`),
 * with MLflow's semantics: a comparison needs the tag, except MLflow's prompt marker, which an
 * ordinary model does not carry. Tags are stored under `mlflow.*` and named per path, so a filter
 * on tracker's paths says `tracker.*` where MLflow's say `mlflow.*`.
 */
describe.each(testDatabases())("registry tag filters on %s", (kind) => {
  const { suite, expectError, searchModels, searchVersions, names } = useRegistrySuite(kind);
  /** MLflow's paths (`2.0/mlflow`), where system tags are `mlflow.*`. */
  const mlflow = strictApiAt(() => suite.url, "2.0/mlflow");
  const mlflowModels = (input: Record<string, unknown>) => mlflow.get<ModelPage>("registered-models/search", input);
  const pairs = (page: VersionPage) => page.model_versions.map((v) => `${v.name}/${v.version}`);

  beforeAll(async () => {
    const create = async (name: string, tags: Array<{ key: string; value: string }>) => {
      const res = await mlflow.post("registered-models/create", { name, tags });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await create("tf-plain", []);
    await create("tf-risk", [{ key: "team", value: "risk" }]);
    await create("tf-ops", [{ key: "team", value: "Ops" }]);
    await create("tf-prompt", [{ key: "mlflow.prompt.is_prompt", value: "true" }]);
    await create("tf-unprompt", [{ key: "mlflow.prompt.is_prompt", value: "false" }]);
    await create("other", [{ key: "team", value: "risk" }]);
    const version = async (name: string, tags: Array<{ key: string; value: string }>) => {
      const res = await mlflow.post("model-versions/create", { name, source: `s3://b/${name}`, tags });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await version("tf-risk", [{ key: "validated", value: "yes" }]);
    await version("tf-risk", []);
    await version("tf-prompt", [{ key: "mlflow.prompt.is_prompt", value: "true" }]);
  });

  it("answers MLflow 3's search (a name filter and the prompt filter) with the ordinary models", async () => {
    const res = await mlflowModels({ filter: `name LIKE 'tf-%' AND ${NOT_A_PROMPT}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(names(res.body)).toEqual(["tf-ops", "tf-plain", "tf-risk", "tf-unprompt"]);
    const alone = await mlflowModels({ filter: NOT_A_PROMPT, max_results: 1000 });
    expect(names(alone.body)).toEqual(expect.arrayContaining(["other", "tf-plain", "tf-unprompt"]));
    expect(names(alone.body)).not.toContain("tf-prompt");
    const ordinary = await mlflowModels({ filter: "name LIKE 'tf-' AND tags.`mlflow.prompt.is_prompt` = 'false'" });
    expect(names(ordinary.body)).toEqual(["tf-ops", "tf-plain", "tf-risk", "tf-unprompt"]);
    const prompts = await mlflowModels({ filter: "tag.`mlflow.prompt.is_prompt` = 'true'" });
    expect(names(prompts.body)).toEqual(["tf-prompt"]);
  });

  it("names the stored mlflow.* tags tracker.* on tracker's paths", async () => {
    const res = await searchModels({ filter: "name LIKE 'tf-' AND tag.`tracker.prompt.is_prompt` != 'true'" });
    expect(names(res.body)).toEqual(["tf-ops", "tf-plain", "tf-risk", "tf-unprompt"]);
    expect(names((await searchModels({ filter: "tags.`tracker.prompt.is_prompt` = 'true'" })).body)).toEqual([
      "tf-prompt",
    ]);
    // On tracker's paths `mlflow.x` is a user tag, stored as `tracker.x`, which no model has.
    expect(names((await searchModels({ filter: "tags.`mlflow.prompt.is_prompt` = 'true'" })).body)).toEqual([]);
    expect(names((await searchModels({ filter: `name LIKE 'tf-' AND ${NOT_A_PROMPT}` })).body)).toEqual([]);
  });

  it("compares tag values with =, !=, LIKE and ILIKE, only on items that have the tag", async () => {
    const search = async (filter: string) => names((await mlflowModels({ filter })).body);
    expect(await search("tags.team = 'risk'")).toEqual(["other", "tf-risk"]);
    expect(await search("tags.team = 'risk' AND name = 'tf-risk'")).toEqual(["tf-risk"]);
    expect(await search("tags.team != 'risk'")).toEqual(["tf-ops"]);
    expect(await search("tags.team LIKE 'ri%'")).toEqual(["other", "tf-risk"]);
    expect(await search("tags.team LIKE 'ri'")).toEqual([]);
    expect(await search("tags.team LIKE 'o%'")).toEqual([]);
    expect(await search("tags.team ILIKE 'o%'")).toEqual(["tf-ops"]);
    expect(await search("tags.`team` = 'risk' AND tag.team = 'Ops'")).toEqual([]);
    expect(await search("tags.missing != 'x'")).toEqual([]);
  });

  it("filters model versions by their tags and the prompt marker", async () => {
    let res = await searchVersions({ filter: "tags.validated = 'yes'" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(pairs(res.body)).toEqual(["tf-risk/1"]);
    res = await searchVersions({ filter: "name = 'tf-risk' AND tag.validated != 'yes'" });
    expect(pairs(res.body)).toEqual([]);
    res = await mlflow.get<VersionPage>("model-versions/search", { filter: `name = 'tf-risk' AND ${NOT_A_PROMPT}` });
    expect(pairs(res.body)).toEqual(["tf-risk/2", "tf-risk/1"]);
    res = await mlflow.get<VersionPage>("model-versions/search", {
      filter: "name = 'tf-prompt' AND tag.`mlflow.prompt.is_prompt` = 'true'",
    });
    expect(pairs(res.body)).toEqual(["tf-prompt/1"]);
    res = await mlflow.get<VersionPage>("model-versions/search", { filter: `name = 'tf-prompt' AND ${NOT_A_PROMPT}` });
    expect(pairs(res.body)).toEqual([]);
  });

  it("rejects what MLflow's registry does not accept on tags", async () => {
    const cases: Array<[string, RegExp]> = [
      ["tags.team IN ('risk')", /'IN' is not allowed for tags.team; it takes =, !=, LIKE, ILIKE/],
      ["tags.team NOT LIKE 'r%'", /'NOT LIKE' is not allowed for tags.team/],
      ['tags.team = "risk"', /single quotes/],
      ["tags.team = 'a' OR tags.team = 'b'", /expected AND/],
      ["params.p = 'a'", /unknown entity 'params'/],
      ["tags.team LIKE 'x\\'", /escape character/],
    ];
    for (const [filter, message] of cases) {
      expectError(await searchModels({ filter }), 400, "INVALID_PARAMETER_VALUE", message);
      expectError(await searchVersions({ filter }), 400, "INVALID_PARAMETER_VALUE", message);
    }
  });
});
