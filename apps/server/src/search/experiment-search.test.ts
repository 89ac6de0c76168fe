import type { Knex } from "knex";
import { beforeAll, describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import type { ViewType } from "../domain/records.js";
import { testDatabases, useTestServer } from "@tracker/testing";
import { searchExperimentRows, type ExperimentSearchOptions } from "./experiment-search.js";
import { parseExperimentFilter } from "./filter-parser.js";
import { searchRuns } from "./run-search.js";

/** The ids of one page of the search, in order, and the token of the next page. */
async function searchExperiments(knex: Knex, options: ExperimentSearchOptions) {
  const { rows, nextPageToken } = await searchExperimentRows(knex, options, "experiments.experiment_id");
  return { experimentIds: rows.map((row) => Number(row.experiment_id)), ...(nextPageToken ? { nextPageToken } : {}) };
}

interface ExperimentFixture {
  id: number;
  name: string;
  creation: number;
  update: number;
  lifecycle?: "active" | "deleted";
  tags?: Record<string, string>;
}

// The server also seeds experiment 0, "Default", created "now" (so it is the newest).
const FIXTURE: ExperimentFixture[] = [
  { id: 10, name: "alpha", creation: 100, update: 500, tags: { team: "vision", "my key": "x" } },
  { id: 11, name: "Beta", creation: 200, update: 400, tags: { team: "nlp" } },
  { id: 12, name: "gamma", creation: 200, update: 300 },
  { id: 13, name: "delta", creation: 50, update: 50, lifecycle: "deleted" },
  { id: 14, name: "alpha-2", creation: 300, update: 100 },
];

async function rejection(fn: () => Promise<unknown>): Promise<TrackerError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrackerError);
    return error as TrackerError;
  }
  throw new Error("expected a rejection");
}

describe.each(testDatabases())("searchExperiments on %s", (kind) => {
  const suite = useTestServer(kind);
  let knex: Knex;

  beforeAll(async () => {
    knex = suite.server.database.knex;
    await knex("experiments").insert(
      FIXTURE.map((e) => ({
        experiment_id: e.id,
        name: e.name,
        artifact_location: `/tmp/a/${e.id}`,
        lifecycle_stage: e.lifecycle ?? "active",
        creation_time: e.creation,
        last_update_time: e.update,
      })),
    );
    const tags = FIXTURE.flatMap((e) =>
      Object.entries(e.tags ?? {}).map(([key, value]) => ({ experiment_id: e.id, key, value })),
    );
    await knex("experiment_tags").insert(tags);
  });

  const ids = async (filter: string | undefined, options: Partial<ExperimentSearchOptions> = {}) => {
    const result = await searchExperiments(knex, {
      filter: parseExperimentFilter(filter),
      viewType: "ACTIVE_ONLY",
      maxResults: 100,
      ...options,
    });
    expect(result.nextPageToken).toBeUndefined();
    return result.experimentIds;
  };

  // Default order: creation_time DESC, experiment_id ASC.
  const FILTERS: Array<[string, number[]]> = [
    ["", [0, 14, 11, 12, 10]],
    ["name = 'alpha'", [10]],
    ["attributes.name = 'alpha'", [10]],
    ["name != 'alpha'", [0, 14, 11, 12]],
    ["name LIKE 'alpha%'", [14, 10]],
    ["name LIKE 'b%'", []],
    ["name ILIKE 'b%'", [11]],
    ["name NOT ILIKE '%a%'", []],
    ["tags.team = 'vision'", [10]],
    ["tags.team != 'vision'", [11]],
    ["NOT tags.team = 'vision'", [0, 14, 11, 12]],
    ["tags.team IN ('vision', 'nlp')", [11, 10]],
    ["tags.team LIKE '%i%'", [10]],
    ["tags.\"my key\" = 'x'", [10]],
    ["tags.`my key` = 'x'", [10]],
    ["creation_time >= 200", [0, 14, 11, 12]],
    ["creation_time < 250", [11, 12, 10]],
    ["attributes.last_update_time > 350", [0, 11, 10]],
    ["experiment_id = '11'", [11]],
    ["experiment_id = 11", [11]],
    ["experiment_id IN ('10', '12')", [12, 10]],
    ["experiment_id NOT IN ('0')", [14, 11, 12, 10]],
    ["name = 'alpha' OR name = 'gamma' AND creation_time > 250", [10]],
    ["(name = 'alpha' OR name = 'gamma') AND creation_time < 250", [12, 10]],
    ["name = 'x'' OR ''1''=''1'", []],
    ["tags.`x' OR '1'='1` = 'a'", []],
  ];

  it.each(FILTERS)("filter %s", async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it("filters by view type", async () => {
    expect(await ids(undefined, { viewType: "DELETED_ONLY" })).toEqual([13]);
    expect(await ids(undefined, { viewType: "ALL" })).toEqual([0, 14, 11, 12, 10, 13]);
  });

  const ORDERS: Array<[string[], number[]]> = [
    [["name"], [11, 10, 14, 12]],
    [["name DESC"], [12, 14, 10, 11]],
    [["attributes.name ASC"], [11, 10, 14, 12]],
    [["creation_time"], [10, 12, 11, 14]],
    [["creation_time DESC"], [14, 12, 11, 10]],
    [["last_update_time"], [14, 12, 11, 10]],
    [["experiment_id DESC"], [14, 12, 11, 10]],
    [["attributes.experiment_id"], [10, 11, 12, 14]],
    [
      ["creation_time DESC", "experiment_id ASC"],
      [14, 11, 12, 10],
    ],
    [[], [14, 11, 12, 10]],
  ];

  it.each(ORDERS)("order_by %j", async (orderBy, expected) => {
    expect(await ids("name != 'Default'", { orderBy })).toEqual(expected);
  });

  it("pages one experiment at a time in every order", async () => {
    for (const [orderBy, expected] of ORDERS) {
      const seen: number[] = [];
      let pageToken: string | undefined;
      do {
        const page = await searchExperiments(knex, {
          filter: parseExperimentFilter("name != 'Default'"),
          orderBy,
          viewType: "ACTIVE_ONLY",
          maxResults: 1,
          pageToken,
        });
        seen.push(...page.experimentIds);
        pageToken = page.nextPageToken;
      } while (pageToken && seen.length < 20);
      expect(seen).toEqual(expected);
    }
  });

  it("pages through 120 experiments 50 at a time, each exactly once", async () => {
    const extra = Array.from({ length: 120 }, (_, i) => ({
      experiment_id: 1000 + i,
      name: `bulk-${String(i).padStart(3, "0")}`,
      artifact_location: "/tmp/x",
      lifecycle_stage: "active",
      creation_time: 10_000 + (i % 7),
      last_update_time: 1,
    }));
    await knex("experiments").insert(extra);
    const expected = [...extra]
      .sort((a, b) => b.creation_time - a.creation_time || a.experiment_id - b.experiment_id)
      .map((e) => e.experiment_id);
    const seen: number[] = [];
    const sizes: number[] = [];
    let pageToken: string | undefined;
    do {
      const page = await searchExperiments(knex, {
        filter: parseExperimentFilter("name LIKE 'bulk-%'"),
        viewType: "ACTIVE_ONLY",
        maxResults: 50,
        pageToken,
      });
      seen.push(...page.experimentIds);
      sizes.push(page.experimentIds.length);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual(expected);
  });

  it("rejects malformed filters, order_by and page tokens", async () => {
    const base = { viewType: "ACTIVE_ONLY" as ViewType, maxResults: 1 };
    for (const filter of ["metrics.a > 1", "name = ", "name > 'a'", "experiment_id = 'x'"]) {
      expect(
        (await rejection(() => searchExperiments(knex, { ...base, filter: parseExperimentFilter(filter) }))).message,
      ).toMatch(/^Invalid filter at position \d+: /);
    }
    for (const orderBy of [["tags.team"], ["foo"], ["name DOWN"], ["run_name"]]) {
      expect((await rejection(() => searchExperiments(knex, { ...base, orderBy }))).message).toMatch(
        /^Invalid order_by clause/,
      );
    }
    const first = await searchExperiments(knex, base);
    expect(first.nextPageToken).toBeDefined();
    for (const options of [
      { filter: parseExperimentFilter("name = 'alpha'") },
      { orderBy: ["name"] },
      { viewType: "ALL" as ViewType },
    ]) {
      const error = await rejection(() =>
        searchExperiments(knex, { ...base, ...options, pageToken: first.nextPageToken }),
      );
      expect(error.message).toBe("Invalid page token");
    }
    for (const pageToken of ["%%%", "eyJvZmZzZXQiOiAxfQ==", Buffer.from("{}").toString("base64url")]) {
      expect((await rejection(() => searchExperiments(knex, { ...base, pageToken }))).message).toBe(
        "Invalid page token",
      );
    }
    // An experiments/search token is not a runs/search token.
    const foreign = await rejection(() =>
      searchRuns(knex, { experimentIds: [0], viewType: "ACTIVE_ONLY", maxResults: 1, pageToken: first.nextPageToken }),
    );
    expect(foreign.message).toBe("Invalid page token");
    const second = await searchExperiments(knex, { ...base, pageToken: first.nextPageToken });
    expect(second.experimentIds).toHaveLength(1);
  });
});
