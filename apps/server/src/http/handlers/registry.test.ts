import { beforeAll, describe, expect, it } from "vitest";
import { apiAt, call, testDatabases, type Api, useTestServer } from "@tracker/testing";

interface Tag {
  key: string;
  value: string;
}

interface ModelVersion {
  name: string;
  version: string;
  creation_timestamp: number;
  last_updated_timestamp: number;
  user_id: string;
  current_stage: string;
  description: string;
  source: string;
  run_id: string;
  status: string;
  status_message: string;
  tags: Tag[];
  run_link: string;
}

interface RegisteredModel {
  name: string;
  creation_timestamp: number;
  last_updated_timestamp: number;
  user_id?: string;
  description: string;
  latest_versions: ModelVersion[];
  tags: Tag[];
}

interface ModelPage {
  registered_models: RegisteredModel[];
  next_page_token?: string;
}

interface VersionPage {
  model_versions: ModelVersion[];
  next_page_token?: string;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Percent-encodes everything but RFC 3986 unreserved characters (spaces as %20, quotes as %27). */
const strictEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The client of the test server with GET query strings strictly percent-encoded: the validator
 * rejects reserved characters (including `+` for a space) in query values the spec does not mark
 * `allowReserved`.
 */
function strictApiAt(baseUrl: string, prefix: string): Api {
  const base = apiAt(baseUrl, prefix);
  return {
    ...base,
    get: <T = Record<string, unknown>>(op: string, input: Record<string, unknown> = {}) => {
      const query = Object.entries(input)
        .flatMap(([key, value]) =>
          (Array.isArray(value) ? value : [value]).map((item) => `${strictEncode(key)}=${strictEncode(String(item))}`),
        )
        .join("&");
      return call<T>(baseUrl, "GET", `/api/${prefix}/${op}${query ? `?${query}` : ""}`);
    },
  };
}

describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const suite = useTestServer(kind);
  /** Registry operations: `2.0/preview/tracker`. */
  let api: Api;
  /** get-latest-versions: `2.0/tracker`. */
  const tracking = suite.api;

  beforeAll(async () => {
    api = strictApiAt(suite.url, "2.0/preview/tracker");
  });

  const createModel = async (name: string, extra: Record<string, unknown> = {}): Promise<RegisteredModel> => {
    const res = await api.post<{ registered_model: RegisteredModel }>("registered-models/create", { name, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.registered_model;
  };
  const getModel = async (name: string): Promise<RegisteredModel> => {
    const res = await api.get<{ registered_model: RegisteredModel }>("registered-models/get", { name });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.registered_model;
  };
  const createVersion = async (name: string, extra: Record<string, unknown> = {}): Promise<ModelVersion> => {
    const res = await api.post<{ model_version: ModelVersion }>("model-versions/create", {
      name,
      source: `s3://bucket/${name}/model`,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const getVersion = async (name: string, version: string): Promise<ModelVersion> => {
    const res = await api.get<{ model_version: ModelVersion }>("model-versions/get", { name, version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const transition = async (name: string, version: string, stage: string, archive = false): Promise<ModelVersion> => {
    const res = await api.post<{ model_version: ModelVersion }>("model-versions/transition-stage", {
      name,
      version,
      stage,
      archive_existing_versions: archive,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const expectError = (
    res: { status: number; body: unknown },
    status: number,
    code: string,
    message?: string | RegExp,
  ) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ error_code: code });
    if (message !== undefined) expect((res.body as { message: string }).message).toMatch(message);
  };
  const searchModels = (input: Record<string, unknown>) => api.get<ModelPage>("registered-models/search", input);
  const searchVersions = (input: Record<string, unknown>) => api.get<VersionPage>("model-versions/search", input);
  const names = (page: ModelPage) => page.registered_models.map((m) => m.name);

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

  // ----- search and list -----

  describe("registered-models/search", () => {
    const prefix = "srch";
    beforeAll(async () => {
      for (const n of ["srch-alpha", "srch-beta", "srch-Gamma", "srch-delta", "srch-alphabet"]) {
        await createModel(n);
        await tick();
      }
      // Touch beta last, so it is the most recently updated.
      await api.post("registered-models/set-tag", { name: "srch-beta", key: "t", value: "1" });
    });

    it("treats LIKE as contains (case-sensitive) and ILIKE as case-insensitive contains", async () => {
      let res = await searchModels({ filter: "name LIKE 'alpha'" });
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(["srch-alpha", "srch-alphabet"]);
      res = await searchModels({ filter: "name LIKE 'srch-%a'" });
      expect(names(res.body)).toEqual(["srch-Gamma", "srch-alpha", "srch-alphabet", "srch-beta", "srch-delta"]);
      res = await searchModels({ filter: "name like 'gamma'" });
      expect(names(res.body)).toEqual([]);
      res = await searchModels({ filter: "name ILIKE 'gamma'" });
      expect(names(res.body)).toEqual(["srch-Gamma"]);
      res = await searchModels({ filter: "name LIKE '%srch-_eta%'" });
      expect(names(res.body)).toEqual(["srch-beta"]);
    });

    it("matches a name exactly with =, single-quote escapes included, and ANDs conditions", async () => {
      let res = await searchModels({ filter: "name = 'srch-alpha'" });
      expect(names(res.body)).toEqual(["srch-alpha"]);
      res = await searchModels({ filter: "name='srch-alph'" });
      expect(names(res.body)).toEqual([]);
      await createModel("srch-it's");
      res = await searchModels({ filter: "name = 'srch-it''s'" });
      expect(names(res.body)).toEqual(["srch-it's"]);
      res = await searchModels({ filter: "name LIKE 'srch' AND name ILIKE 'ALPHA' and name like 'bet'" });
      expect(names(res.body)).toEqual(["srch-alphabet"]);
      await api.delete("registered-models/delete", { name: "srch-it's" });
    });

    it("returns every model without a filter, ordered by name ascending", async () => {
      const res = await searchModels({ max_results: 1000 });
      expect(res.status).toBe(200);
      const all = names(res.body);
      expect(all).toEqual([...all].sort());
      expect(all).toEqual(expect.arrayContaining(["srch-alpha", "srch-beta"]));
    });

    it("orders by name and last_updated_timestamp, ASC or DESC, ties by name ascending", async () => {
      const filter = `name LIKE '${prefix}-'`;
      let res = await searchModels({ filter, order_by: "name DESC" });
      expect(names(res.body)).toEqual(["srch-delta", "srch-beta", "srch-alphabet", "srch-alpha", "srch-Gamma"]);
      res = await searchModels({ filter, order_by: "last_updated_timestamp DESC" });
      expect(names(res.body)[0]).toBe("srch-beta");
      res = await searchModels({ filter, order_by: ["last_updated_timestamp asc"] });
      expect(names(res.body)).toEqual(["srch-alpha", "srch-Gamma", "srch-delta", "srch-alphabet", "srch-beta"]);
      const stamps = res.body.registered_models.map((m) => m.last_updated_timestamp);
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    });

    it("breaks last_updated_timestamp ties by name ascending", async () => {
      // Models updated in the same millisecond cannot be forced; check the rule on the whole result.
      const res = await searchModels({ order_by: ["last_updated_timestamp DESC"], max_results: 1000 });
      const rows = res.body.registered_models;
      for (let i = 1; i < rows.length; i += 1) {
        const [a, b] = [rows[i - 1], rows[i]];
        expect(a.last_updated_timestamp).toBeGreaterThanOrEqual(b.last_updated_timestamp);
        if (a.last_updated_timestamp === b.last_updated_timestamp)
          expect(Buffer.compare(Buffer.from(a.name), Buffer.from(b.name))).toBeLessThan(0);
      }
    });

    it("pages with opaque tokens: every model once, in order", async () => {
      const filter = `name LIKE '${prefix}-'`;
      for (const order_by of [[], ["name DESC"], ["last_updated_timestamp DESC"]]) {
        const full = names((await searchModels({ filter, order_by })).body);
        const seen: string[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          const res = await searchModels({ filter, order_by, max_results: 2, ...(token ? { page_token: token } : {}) });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          seen.push(...names(res.body));
          token = res.body.next_page_token;
          pages += 1;
        } while (token);
        expect(seen).toEqual(full);
        expect(pages).toBe(3);
      }
    });

    it("defaults max_results to 100 and allows at most 1000", async () => {
      for (let i = 0; i < 101; i += 1) await createModel(`many-${String(i).padStart(3, "0")}`);
      const res = await searchModels({ filter: "name LIKE 'many-'" });
      expect(res.body.registered_models).toHaveLength(100);
      expect(res.body.next_page_token).toEqual(expect.any(String));
      const rest = await searchModels({ filter: "name LIKE 'many-'", page_token: res.body.next_page_token });
      expect(names(rest.body)).toEqual(["many-100"]);
      expect(rest.body.next_page_token).toBeUndefined();
      expect((await searchModels({ max_results: 1000 })).status).toBe(200);
      expectError(await searchModels({ max_results: 1001 }), 400, "INVALID_PARAMETER_VALUE", /max_results/);
      expectError(await searchModels({ max_results: 0 }), 400, "INVALID_PARAMETER_VALUE", /max_results/);
    });

    it("rejects a tampered page token or one from another order with INVALID_PARAMETER_VALUE", async () => {
      const first = await searchModels({ filter: `name LIKE '${prefix}-'`, max_results: 1 });
      const token = first.body.next_page_token as string;
      expect(token).toEqual(expect.any(String));
      expectError(await searchModels({ page_token: "not-a-token" }), 400, "INVALID_PARAMETER_VALUE", /page token/);
      expectError(
        await searchModels({ page_token: `AAAAA${token.slice(5)}` }),
        400,
        "INVALID_PARAMETER_VALUE",
        /page token/,
      );
      const forged = Buffer.from(JSON.stringify({ s: "registered-models/search", o: "name+", a: [42] })).toString(
        "base64url",
      );
      expectError(await searchModels({ page_token: forged }), 400, "INVALID_PARAMETER_VALUE", /page token/);
      expectError(
        await searchModels({ page_token: token, order_by: "name DESC" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /page token/,
      );
    });

    it("rejects malformed filters, naming the problem", async () => {
      const cases: Array<[string, RegExp]> = [
        ["name LIKE 'unclosed", /unterminated string/],
        ["description = 'x'", /unknown attribute 'description'/],
        ["name != 'x'", /'!=' is not allowed for name/],
        ['name = "x"', /single quotes/],
        ["name = 'a' OR name = 'b'", /expected AND/],
        ["name = 'a' AND", /expected an identifier: name/],
        ["name = 5", /single quotes/],
        ["name", /expected a comparison operator \(=, LIKE, ILIKE\)/],
        ["(name = 'a')", /expected an identifier: name/],
        ["name = 'a' ; drop table x", /unexpected character ';'/],
        ["run_id = 'x'", /unknown attribute 'run_id'/],
      ];
      for (const [filter, message] of cases) {
        const res = await searchModels({ filter });
        expectError(res, 400, "INVALID_PARAMETER_VALUE", message);
        expect((res.body as unknown as { message: string }).message).toContain("Invalid filter");
      }
    });

    it("rejects an unknown order_by column, a bad direction and a repeated column", async () => {
      expectError(
        await searchModels({ order_by: "creation_timestamp" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /unknown column 'creation_timestamp'/,
      );
      expectError(await searchModels({ order_by: "name UP" }), 400, "INVALID_PARAMETER_VALUE", /ASC or DESC/);
      expectError(await searchModels({ order_by: "name ASC extra" }), 400, "INVALID_PARAMETER_VALUE", /order_by/);
      expectError(
        await searchModels({ order_by: ["name", "name DESC"] }),
        400,
        "INVALID_PARAMETER_VALUE",
        /more than once/,
      );
    });
  });

  describe("registered-models/list", () => {
    it("pages through all models by name ascending and checks its bounds", async () => {
      const all = names((await searchModels({ max_results: 1000 })).body);
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const res = await api.get<ModelPage>("registered-models/list", {
          max_results: 7,
          ...(token ? { page_token: token } : {}),
        });
        expect(res.status).toBe(200);
        seen.push(...names(res.body));
        token = res.body.next_page_token;
      } while (token);
      expect(seen).toEqual(all);
      const defaultPage = await api.get<ModelPage>("registered-models/list");
      expect(defaultPage.body.registered_models.length).toBe(Math.min(100, all.length));
      expectError(
        await api.get("registered-models/list", { max_results: 1001 }),
        400,
        "INVALID_PARAMETER_VALUE",
        /max_results/,
      );
      expectError(
        await api.get("registered-models/list", { page_token: "garbage" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /page token/,
      );
    });
  });

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

  // ----- model-versions/search -----

  describe("model-versions/search", () => {
    const run = "feedfacefeedfacefeedfacefeedface";
    beforeAll(async () => {
      await createModel("vs-a");
      await createModel("vs-b");
      await createVersion("vs-a", { source: "s3://vs/a1", run_id: run });
      await tick();
      await createVersion("vs-a", { source: "s3://vs/a2" });
      await tick();
      await createVersion("vs-b", { source: "s3://vs/b1", run_id: run });
      await tick();
      await createVersion("vs-a", { source: "s3://vs/a3" });
      await tick();
      await transition("vs-a", "2", "Staging");
      await tick();
      await transition("vs-a", "1", "Production");
    });
    const pairs = (page: VersionPage) => page.model_versions.map((v) => `${v.name}/${v.version}`);

    it("filters by name, run_id and source_path, alone and ANDed", async () => {
      let res = await searchVersions({ filter: "name='vs-a'" });
      expect(res.status).toBe(200);
      // Default order: last_updated_timestamp DESC, then name, then version DESC.
      expect(pairs(res.body)).toEqual(["vs-a/1", "vs-a/2", "vs-a/3"]);
      res = await searchVersions({ filter: `run_id = '${run}'` });
      expect(pairs(res.body)).toEqual(["vs-a/1", "vs-b/1"]);
      res = await searchVersions({ filter: "source_path = 's3://vs/a3'" });
      expect(pairs(res.body)).toEqual(["vs-a/3"]);
      res = await searchVersions({ filter: `name = 'vs-b' AND run_id = '${run}'` });
      expect(pairs(res.body)).toEqual(["vs-b/1"]);
      res = await searchVersions({ filter: "name = 'vs-none'" });
      expect(res.body).toEqual({ model_versions: [] });
    });

    it("orders by name, version, stage and last_updated_timestamp with the tie-breaks", async () => {
      const filter = "source_path = 's3://vs/a1' AND name = 'vs-a'";
      expect(pairs((await searchVersions({ filter })).body)).toEqual(["vs-a/1"]);
      const byRun = `run_id = '${run}'`;
      expect(pairs((await searchVersions({ filter: byRun, order_by: "name DESC" })).body)).toEqual([
        "vs-b/1",
        "vs-a/1",
      ]);
      const a = "name = 'vs-a'";
      expect(pairs((await searchVersions({ filter: a, order_by: "version" })).body)).toEqual([
        "vs-a/1",
        "vs-a/2",
        "vs-a/3",
      ]);
      expect(pairs((await searchVersions({ filter: a, order_by: "version DESC" })).body)).toEqual([
        "vs-a/3",
        "vs-a/2",
        "vs-a/1",
      ]);
      // Stage as text: None < Production < Staging.
      expect(pairs((await searchVersions({ filter: a, order_by: "stage ASC" })).body)).toEqual([
        "vs-a/3",
        "vs-a/1",
        "vs-a/2",
      ]);
      expect(pairs((await searchVersions({ filter: a, order_by: "stage DESC" })).body)).toEqual([
        "vs-a/2",
        "vs-a/1",
        "vs-a/3",
      ]);
      expect(pairs((await searchVersions({ filter: a, order_by: "last_updated_timestamp ASC" })).body)).toEqual([
        "vs-a/3",
        "vs-a/2",
        "vs-a/1",
      ]);
      // name ASC alone: ties among vs-a's versions by last_updated_timestamp DESC.
      const both = await searchVersions({ filter: "source_path = 's3://vs/a2'", order_by: ["name"] });
      expect(pairs(both.body)).toEqual(["vs-a/2"]);
      const all = await searchVersions({ order_by: ["name ASC"], max_results: 200000 });
      const mine = pairs(all.body).filter((p) => p.startsWith("vs-"));
      expect(mine).toEqual(["vs-a/1", "vs-a/2", "vs-a/3", "vs-b/1"]);
    });

    it("pages with tokens through every version once", async () => {
      for (const order_by of [[], ["version DESC"], ["stage", "name DESC"]]) {
        const filter = "name = 'vs-a'";
        const full = pairs((await searchVersions({ filter, order_by })).body);
        const seen: string[] = [];
        let token: string | undefined;
        do {
          const res = await searchVersions({
            filter,
            order_by,
            max_results: 1,
            ...(token ? { page_token: token } : {}),
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          seen.push(...pairs(res.body));
          token = res.body.next_page_token;
        } while (token);
        expect(seen).toEqual(full);
        expect(seen).toHaveLength(3);
      }
    });

    it("checks max_results (1 to 200000), page tokens, filters and order_by", async () => {
      expect((await searchVersions({ max_results: 200000 })).status).toBe(200);
      expectError(await searchVersions({ max_results: 200001 }), 400, "INVALID_PARAMETER_VALUE", /max_results/);
      expectError(await searchVersions({ max_results: 0 }), 400, "INVALID_PARAMETER_VALUE", /max_results/);
      expectError(await searchVersions({ page_token: "%%%" }), 400, "INVALID_PARAMETER_VALUE", /page token/);
      const modelToken = (await searchModels({ max_results: 1 })).body.next_page_token as string;
      expectError(await searchVersions({ page_token: modelToken }), 400, "INVALID_PARAMETER_VALUE", /page token/);
      expectError(
        await searchVersions({ filter: "name LIKE 'vs'" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /'LIKE' is not allowed for name; it takes =/,
      );
      expectError(
        await searchVersions({ filter: "stage = 'None'" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /unknown attribute 'stage'/,
      );
      expectError(
        await searchVersions({ filter: "name = 'vs-a' AND" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /expected an identifier: name, run_id or source_path/,
      );
      expectError(
        await searchVersions({ order_by: "run_id" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /unknown column 'run_id'/,
      );
    });
  });

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
