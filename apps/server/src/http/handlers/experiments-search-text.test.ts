import { beforeAll, describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";
import { loadExperiments } from "../../store/experiments.js";
import { experimentOut } from "../shapes.js";

/**
 * experiments/search of revision C answers with the JSON text the database writes for each
 * experiment (store/experiments.ts experimentJsonColumns): byte for byte the text that
 * JSON.stringify writes for the same experiments shaped by experimentOut, whatever the strings
 * hold, on tracker's and MLflow's paths (whose system tags trade prefixes) and with one namespace
 * for every path.
 */

const AWKWARD = `quote " backslash \\ slash / nl \n tab \t cr \r bs \b ff \f ctl \u0001\u001f del \u007f é 日本 😀 \u2028\u2029`;

const FIXTURE = [
  {
    id: 101,
    name: `awkward ${AWKWARD}`,
    location: `s3://bucket/${AWKWARD}`,
    stage: "active",
    tags: {
      "mlflow.user": "alice",
      "mlflow.": "empty suffix",
      mlflowx: "not a system tag",
      "tracker.note": `note ${AWKWARD}`,
      "acme.team": "vision",
      a: "",
      Z: "upper",
      é: AWKWARD,
    },
  },
  { id: 102, name: "no tags", location: "/tmp/a/102", stage: "active", tags: {} },
  { id: 103, name: "deleted one", location: "/tmp/a/103", stage: "deleted", tags: { k: "v" } },
  ...Array.from({ length: 5 }, (_, i) => ({
    id: 110 + i,
    name: `plain ${i}`,
    location: `/tmp/a/${110 + i}`,
    stage: "active",
    tags: { "mlflow.note.content": `n${i}` },
  })),
];

const CONFIGS = [
  ["paths' own namespaces", {}],
  ["one namespace", { namespace: "acme" }],
] as const;

describe.each(testDatabases().flatMap((kind) => CONFIGS.map(([name, config]) => [kind, name, config] as const)))(
  "experiments/search as JSON text on %s (%s)",
  (kind, _name, config) => {
    const suite = useTestServer(kind, config);

    const search = async (prefix: string, body: object) => {
      const response = await fetch(`${suite.url}${prefix}/experiments/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return response.text();
    };

    /** What the object path writes for the experiments of `text`, in its order, with its token. */
    const expected = async (text: string, namespace: string) => {
      const answer = JSON.parse(text) as { experiments: Array<{ experiment_id: string }>; next_page_token?: string };
      const ids = answer.experiments.map((e) => Number(e.experiment_id));
      const records = await loadExperiments(suite.server.database.knex, ids);
      const body = { experiments: records.map((e) => experimentOut("c", e, namespace)) };
      return JSON.stringify(answer.next_page_token ? { ...body, next_page_token: answer.next_page_token } : body);
    };

    beforeAll(async () => {
      const knex = suite.server.database.knex;
      await knex("experiments").insert(
        FIXTURE.map((e, i) => ({
          experiment_id: e.id,
          name: e.name,
          artifact_location: e.location,
          lifecycle_stage: e.stage,
          creation_time: 1_700_000_000_000 + i,
          last_update_time: 1_800_000_000_000 - i,
        })),
      );
      await knex("experiment_tags").insert(
        FIXTURE.flatMap((e) => Object.entries(e.tags).map(([key, value]) => ({ experiment_id: e.id, key, value }))),
      );
    });

    it("writes what JSON.stringify writes for the same experiments", async () => {
      const paths = [
        ["/api/2.0/tracker", "namespace" in config ? config.namespace : "tracker"],
        ["/api/2.0/mlflow", "namespace" in config ? config.namespace : "mlflow"],
      ] as const;
      for (const [prefix, namespace] of paths) {
        for (const body of [
          { max_results: 1000, view_type: "ALL" },
          { filter: "name LIKE 'awkward%'" },
          { filter: "name = 'nothing like it'" },
          { order_by: ["name ASC"], max_results: 3 },
        ]) {
          const text = await search(prefix, body);
          expect(text, `${prefix} ${JSON.stringify(body)}`).toBe(await expected(text, namespace));
        }
        const all = JSON.parse(await search(prefix, { view_type: "ALL" })) as { experiments: unknown[] };
        expect(all.experiments).toHaveLength(FIXTURE.length + 1);
      }
    });

    it("pages through the same experiments as one page", async () => {
      const prefix = "/api/2.0/tracker";
      const one = JSON.parse(await search(prefix, { max_results: 100 })) as { experiments: unknown[] };
      const paged: unknown[] = [];
      let token: string | undefined;
      do {
        const page = JSON.parse(await search(prefix, { max_results: 2, ...(token ? { page_token: token } : {}) })) as {
          experiments: unknown[];
          next_page_token?: string;
        };
        paged.push(...page.experiments);
        token = page.next_page_token;
      } while (token);
      expect(paged).toEqual(one.experiments);
      expect(paged.length).toBeGreaterThan(2);
    });
  },
);
