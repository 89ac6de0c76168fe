import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@tracker/testing";
import { tick, useRegistrySuite, type ModelPage, type VersionPage } from "./registry.test-kit.js";

/** Registry search over HTTP (revision C): registered-models/search and list, model-versions/search; filters, order and paging. */
describe.each(testDatabases())("revision C model registry on %s", (kind) => {
  const { api, createModel, createVersion, transition, expectError, searchModels, searchVersions, names } =
    useRegistrySuite(kind);

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

    it("answers a page token of an earlier server (before the one token kit) with a clear 400", async () => {
      // The registry tokens servers issued before: {"s": search, "o": order signature, "a": sort values}.
      const earlier = (body: object) => Buffer.from(JSON.stringify(body)).toString("base64url");
      const earlierMessage =
        "Invalid page token: it was issued by an earlier version of the server; search again without page_token";
      for (const [search, page_token] of [
        [searchModels, earlier({ s: "registered-models/search", o: "name+", a: [`${prefix}-alpha`] })],
        [
          searchVersions,
          earlier({ s: "model-versions/search", o: "last_updated_timestamp-,name+,version-", a: [1, "m", 1] }),
        ],
      ] as const) {
        const res = await search({ page_token });
        expectError(res, 400, "INVALID_PARAMETER_VALUE", /page token/);
        expect((res.body as unknown as { message: string }).message).toBe(earlierMessage);
      }
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
        /expected an identifier: name, run_id, source_path or tags.<key>/,
      );
      expectError(
        await searchVersions({ order_by: "run_id" }),
        400,
        "INVALID_PARAMETER_VALUE",
        /unknown column 'run_id'/,
      );
    });
  });
});
