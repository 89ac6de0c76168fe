import type { Knex } from "knex";
import { beforeAll, describe, expect, it } from "vitest";
import { TrackerError } from "../errors.js";
import type { ViewType } from "../domain/records.js";
import { testDatabases, useTestServer } from "@tracker/testing";
import { andedExpressionsToFilter } from "./anded-expressions.js";
import { parseRunFilter } from "./filter-parser.js";
import { searchRuns, type RunSearchOptions } from "./run-search.js";

/** Run ids: 32 lowercase hex characters. */
const rid = (n: number) => n.toString(16).padStart(32, "0");

interface RunFixture {
  id: string;
  experimentId: number;
  name: string;
  status?: string;
  start: number;
  end?: number | null;
  lifecycle?: "active" | "deleted";
  artifactUri?: string;
  params?: Record<string, string>;
  tags?: Record<string, string>;
  metrics?: Record<string, number>;
}

async function insertExperiment(knex: Knex, id: number, name: string): Promise<void> {
  await knex("experiments").insert({
    experiment_id: id,
    name,
    artifact_location: `/tmp/artifacts/${id}`,
    lifecycle_stage: "active",
    creation_time: 1,
    last_update_time: 1,
  });
}

const metricRow = (knex: Knex, runId: string, key: string, value: number) => {
  const v = Number.isNaN(value) ? knex.raw("CAST('NaN' AS double precision)") : value;
  return {
    run_uuid: runId,
    key,
    value: v,
    timestamp: 1,
    step: 0,
    last_value: v,
    last_timestamp: 1,
    last_step: 0,
    last_id: 1,
  };
};

async function insertRuns(knex: Knex, runs: RunFixture[]): Promise<void> {
  const chunk = 500;
  for (let i = 0; i < runs.length; i += chunk) {
    const part = runs.slice(i, i + chunk);
    await knex("runs").insert(
      part.map((r) => ({
        run_uuid: r.id,
        experiment_id: r.experimentId,
        run_name: r.name,
        status: r.status ?? "FINISHED",
        start_time: r.start,
        end_time: r.end ?? null,
        artifact_uri: r.artifactUri ?? `/tmp/artifacts/${r.experimentId}/${r.id}/artifacts`,
        lifecycle_stage: r.lifecycle ?? "active",
      })),
    );
    const params = part.flatMap((r) =>
      Object.entries(r.params ?? {}).map(([key, value]) => ({ run_uuid: r.id, key, value })),
    );
    const tags = part.flatMap((r) =>
      Object.entries(r.tags ?? {}).map(([key, value]) => ({ run_uuid: r.id, key, value })),
    );
    const metrics = part.flatMap((r) =>
      Object.entries(r.metrics ?? {}).map(([key, value]) => metricRow(knex, r.id, key, value)),
    );
    if (params.length) await knex("params").insert(params);
    if (tags.length) await knex("tags").insert(tags);
    if (metrics.length) await knex("latest_metrics").insert(metrics);
  }
}

const FIXTURE: RunFixture[] = [
  {
    id: rid(1),
    experimentId: 1,
    name: "alpha",
    status: "FINISHED",
    start: 1000,
    end: 2000,
    params: { lr: "0.1", model: "CNN", "my key": "v1", pct: "50%_off\\x" },
    tags: { team: "Vision", "mlflow.runName": "alpha" },
    metrics: { acc: 0.9, loss: 0.5, "val acc": 0.8 },
  },
  {
    id: rid(2),
    experimentId: 1,
    name: "beta",
    status: "RUNNING",
    start: 2000,
    end: null,
    params: { lr: "0.01", model: "cnn", pct: "abc50x_off" },
    tags: { team: "vision" },
    metrics: { acc: 0.7, loss: NaN },
  },
  {
    id: rid(3),
    experimentId: 1,
    name: "gamma",
    status: "FAILED",
    start: 3000,
    end: 3500,
    artifactUri: "s3://bucket/c",
    params: { lr: "0.1" },
    metrics: { acc: 0.9 },
  },
  { id: rid(4), experimentId: 1, name: "delta", status: "FINISHED", start: 3000, end: 4000, metrics: { loss: 1.5 } },
  {
    id: rid(5),
    experimentId: 1,
    name: "eps",
    status: "FINISHED",
    start: 5000,
    lifecycle: "deleted",
    params: { lr: "0.1" },
  },
  { id: rid(6), experimentId: 2, name: "phi", status: "FINISHED", start: 6000, params: { lr: "0.1" } },
];
const NAMES = new Map(FIXTURE.map((r) => [r.id, r.name]));

/** Calls fn and returns the TrackerError it throws. */
async function rejection(fn: () => Promise<unknown>): Promise<TrackerError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrackerError);
    return error as TrackerError;
  }
  throw new Error("expected a rejection");
}

describe.each(testDatabases())("searchRuns on %s", (kind) => {
  const suite = useTestServer(kind);
  let knex: Knex;

  beforeAll(async () => {
    knex = suite.server.database.knex;
    await insertExperiment(knex, 1, "one");
    await insertExperiment(knex, 2, "two");
    await insertRuns(knex, FIXTURE);
  });

  const names = async (filter: string, options: Partial<RunSearchOptions> = {}) => {
    const result = await searchRuns(knex, {
      experimentIds: [1],
      filter: parseRunFilter(filter),
      viewType: "ACTIVE_ONLY",
      maxResults: 100,
      ...options,
    });
    expect(result.nextPageToken).toBeUndefined();
    return result.runIds.map((id) => NAMES.get(id) ?? id);
  };

  // Default order: start_time DESC, run_uuid ASC -> gamma (3000, id 3), delta (3000, id 4), beta, alpha.
  const FILTERS: Array<[string, string[]]> = [
    ["", ["gamma", "delta", "beta", "alpha"]],
    // metrics: every operator
    ["metrics.acc = 0.9", ["gamma", "alpha"]],
    ["metrics.acc != 0.9", ["beta"]],
    ["metrics.acc <> 0.9", ["beta"]],
    ["metrics.acc > 0.8", ["gamma", "alpha"]],
    ["metrics.acc >= 0.7", ["gamma", "beta", "alpha"]],
    ["metrics.acc < 0.9", ["beta"]],
    ["metrics.acc <= 0.9", ["gamma", "beta", "alpha"]],
    ["metrics.acc > 1e-3", ["gamma", "beta", "alpha"]],
    ["metric.acc >= 0.70", ["gamma", "beta", "alpha"]],
    // a stored NaN satisfies only !=
    ["metrics.loss > 0", ["delta", "alpha"]],
    ["metrics.loss >= -1e308", ["delta", "alpha"]],
    ["metrics.loss < 100", ["delta", "alpha"]],
    ["metrics.loss = 0.5", ["alpha"]],
    ["metrics.loss != 0.5", ["delta", "beta"]],
    // numeric attributes, integer and fractional bounds, NULL end_time
    ["start_time >= 2000", ["gamma", "delta", "beta"]],
    ["attributes.start_time = 3000", ["gamma", "delta"]],
    ["attributes.start_time != 1000", ["gamma", "delta", "beta"]],
    ["start_time > 2999.5", ["gamma", "delta"]],
    ["start_time < 2000.5", ["beta", "alpha"]],
    ["start_time <= 2000", ["beta", "alpha"]],
    ["start_time = 3000.5", []],
    ["start_time > 1e30", []],
    ["start_time < 1e30", ["gamma", "delta", "beta", "alpha"]],
    ["end_time > 1000", ["gamma", "delta", "alpha"]],
    ["end_time != 2000", ["gamma", "delta"]],
    ["NOT end_time > 3000", ["beta", "alpha"]],
    // string attributes
    ["status = 'FINISHED'", ["delta", "alpha"]],
    ["attributes.status != 'FINISHED'", ["gamma", "beta"]],
    ["run_name LIKE 'g%'", ["gamma"]],
    ["run_name LIKE 'G%'", []],
    ["run_name ILIKE 'G%'", ["gamma"]],
    ["run_name NOT LIKE '%ta'", ["gamma", "alpha"]],
    ["attr.run_name = 'beta'", ["beta"]],
    ["artifact_uri LIKE 's3://%'", ["gamma"]],
    [`attributes.run_id = '${rid(3)}'`, ["gamma"]],
    [`run_id IN ('${rid(1)}', '${rid(4)}')`, ["delta", "alpha"]],
    [`run_id NOT IN ('${rid(1)}')`, ["gamma", "delta", "beta"]],
    ["run_id LIKE '%4'", ["delta"]],
    // params
    ["params.lr = '0.1'", ["gamma", "alpha"]],
    ['params.lr = "0.1"', ["gamma", "alpha"]],
    ["params.lr != '0.1'", ["beta"]],
    ["params.model = 'CNN'", ["alpha"]],
    ["params.model LIKE 'C%'", ["alpha"]],
    ["params.model ILIKE 'c%'", ["beta", "alpha"]],
    ["params.model LIKE 'c_n'", ["beta"]],
    ["params.model NOT LIKE 'C%'", ["beta"]],
    ["params.model NOT ILIKE 'c%'", []],
    ["params.lr IN ('0.1', '0.01')", ["gamma", "beta", "alpha"]],
    ["params.lr NOT IN ('0.1')", ["beta"]],
    ["params.LR = '0.1'", []],
    ["params.pct LIKE '%\\%\\_%'", ["alpha"]],
    // tags
    ["tags.team = 'Vision'", ["alpha"]],
    ["tags.team LIKE 'v%'", ["beta"]],
    ["tags.team ILIKE 'V%'", ["beta", "alpha"]],
    ["tags.mlflow.runName = 'alpha'", ["alpha"]],
    ["tags.`mlflow.runName` = 'alpha'", ["alpha"]],
    ["tags.\"mlflow.runName\" = 'alpha'", ["alpha"]],
    // quoting keys with special characters
    ["params.\"my key\" = 'v1'", ["alpha"]],
    ["params.`my key` = 'v1'", ["alpha"]],
    ['metrics."val acc" > 0.5', ["alpha"]],
    ["metrics.`val acc` < 0.5", []],
    // missing keys
    ["params.model != 'CNN'", ["beta"]],
    ["NOT params.model = 'CNN'", ["gamma", "delta", "beta"]],
    ["NOT params.lr IN ('0.1')", ["delta", "beta"]],
    ["NOT metrics.acc > 0.8", ["delta", "beta"]],
    ["metrics.nope > 0 OR NOT metrics.nope > 0", ["gamma", "delta", "beta", "alpha"]],
    // precedence and parentheses
    ["metrics.loss > 1 OR params.model = 'CNN' AND metrics.acc < 0.8", ["delta"]],
    ["(metrics.loss > 1 OR params.model = 'CNN') AND metrics.acc > 0.8", ["alpha"]],
    ["NOT params.lr = '0.1' AND status = 'FINISHED'", ["delta"]],
    ["NOT (params.lr = '0.1' AND status = 'FINISHED')", ["gamma", "delta", "beta"]],
    ["params.lr = '0.1' AND status = 'FAILED' OR status = 'RUNNING'", ["gamma", "beta"]],
    ["params.lr = '0.1' AND (status = 'FAILED' OR status = 'RUNNING')", ["gamma"]],
    ["not (status = 'FAILED' or status = 'RUNNING') and not metrics.loss > 1", ["alpha"]],
    // injection attempts: bound values and keys, no rows, no error
    ["params.`x' OR '1'='1` = 'a'", []],
    ["params.\"x' OR '1'='1\" = 'a'", []],
    ["params.lr = '0.1'' OR ''1''=''1'", []],
    ["params.lr = '0.1''; DROP TABLE runs; --'", []],
    ["tags.`a\"; DROP TABLE tags; --` = 'x'", []],
    ["run_name = '\\'' OR 1=1 --'", []],
    ["params.\"a?b\" = '?' OR params.lr = '?'", []],
    ["params.lr = '$1' OR params.lr = ':name' OR params.lr = '??'", []],
  ];

  it.each(FILTERS)("filter %s", async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it("leaves the database intact after injection attempts", async () => {
    expect(Number((await knex("runs").count({ n: "*" }).first())?.n)).toBe(FIXTURE.length);
    expect(Number((await knex("tags").count({ n: "*" }).first())?.n)).toBe(3);
  });

  it("rejects a filter whose syntax breaks with a parse error", async () => {
    expect(() => parseRunFilter("params.lr = '0.1' ; DROP TABLE runs")).toThrow(/Invalid filter at position 19/);
    expect(() => parseRunFilter("params.lr = '0.1' OR 1=1")).toThrow(/Invalid filter at position 22/);
  });

  it("filters by view type and by experiment ids", async () => {
    expect(await names("params.lr = '0.1'", { viewType: "DELETED_ONLY" })).toEqual(["eps"]);
    expect(await names("params.lr = '0.1'", { viewType: "ALL" })).toEqual(["eps", "gamma", "alpha"]);
    expect(await names("params.lr = '0.1'", { experimentIds: [2, 1, 2] })).toEqual(["phi", "gamma", "alpha"]);
    expect(await names("", { experimentIds: [] })).toEqual([]);
    expect(await names("", { experimentIds: [99] })).toEqual([]);
  });

  const ORDERS: Array<[string[], string[]]> = [
    [[], ["gamma", "delta", "beta", "alpha"]],
    [["metrics.acc DESC"], ["gamma", "alpha", "beta", "delta"]],
    [["metrics.acc"], ["beta", "gamma", "alpha", "delta"]],
    [["metrics.acc ASC"], ["beta", "gamma", "alpha", "delta"]],
    [["metrics.loss ASC"], ["alpha", "delta", "beta", "gamma"]],
    [["metrics.loss DESC"], ["delta", "alpha", "beta", "gamma"]],
    [["params.lr DESC"], ["gamma", "alpha", "beta", "delta"]],
    [["params.lr"], ["beta", "gamma", "alpha", "delta"]],
    [["tags.mlflow.runName"], ["alpha", "gamma", "delta", "beta"]],
    // strings sort by code point ("C" collation) on every database: 'Vision' < 'vision'
    [["tags.team"], ["alpha", "beta", "gamma", "delta"]],
    [["tags.team DESC"], ["beta", "alpha", "gamma", "delta"]],
    [["params.model DESC"], ["beta", "alpha", "gamma", "delta"]],
    [["tags.`mlflow.runName` DESC"], ["alpha", "gamma", "delta", "beta"]],
    [["attributes.end_time ASC"], ["alpha", "gamma", "delta", "beta"]],
    [["end_time DESC"], ["delta", "gamma", "alpha", "beta"]],
    [["start_time ASC"], ["alpha", "beta", "gamma", "delta"]],
    [["start_time DESC"], ["gamma", "delta", "beta", "alpha"]],
    [["run_name"], ["alpha", "beta", "delta", "gamma"]],
    [["attributes.run_name DESC"], ["gamma", "delta", "beta", "alpha"]],
    [
      ["status DESC", "run_name"],
      ["beta", "alpha", "delta", "gamma"],
    ],
    [["run_id DESC"], ["delta", "gamma", "beta", "alpha"]],
    [
      ["run_id DESC", "metrics.acc"],
      ["delta", "gamma", "beta", "alpha"],
    ],
    [
      ["metrics.acc DESC", "start_time ASC"],
      ["alpha", "gamma", "beta", "delta"],
    ],
    [
      ["metrics.acc DESC", "run_id DESC"],
      ["gamma", "alpha", "beta", "delta"],
    ],
    [["artifact_uri DESC"], ["gamma", "delta", "beta", "alpha"]],
    [["metrics.`a; DROP TABLE runs` DESC"], ["gamma", "delta", "beta", "alpha"]],
  ];

  it.each(ORDERS)("order_by %j", async (orderBy, expected) => {
    expect(await names("", { orderBy })).toEqual(expected);
  });

  it("pages through every order one and two runs at a time, with the same result as one page", async () => {
    for (const [orderBy, expected] of ORDERS) {
      for (const maxResults of [1, 2, 3]) {
        const seen: string[] = [];
        let pageToken: string | undefined;
        let pages = 0;
        do {
          const page = await searchRuns(knex, {
            experimentIds: [1],
            orderBy,
            viewType: "ACTIVE_ONLY",
            maxResults,
            pageToken,
          });
          seen.push(...page.runIds.map((id) => NAMES.get(id) ?? id));
          pageToken = page.nextPageToken;
          pages++;
        } while (pageToken && pages < 10);
        expect(seen, `${JSON.stringify(orderBy)} by ${maxResults}`).toEqual(expected);
        expect(pages).toBe(Math.ceil(expected.length / maxResults));
      }
    }
  });

  it("rejects malformed order_by and options", async () => {
    const base = { experimentIds: [1], viewType: "ACTIVE_ONLY" as ViewType, maxResults: 10 };
    for (const orderBy of [
      ["metrics.acc DOWN"],
      ["foo"],
      [""],
      ["metrics.acc DESC, start_time"],
      Array.from({ length: 11 }, () => "start_time"),
    ]) {
      const error = await rejection(() => searchRuns(knex, { ...base, orderBy }));
      expect(error.code).toBe("INVALID_PARAMETER_VALUE");
    }
    for (const maxResults of [0, -1, 1.5, 50_001, Number.NaN]) {
      expect((await rejection(() => searchRuns(knex, { ...base, maxResults }))).code).toBe("INVALID_PARAMETER_VALUE");
    }
    expect((await rejection(() => searchRuns(knex, { ...base, viewType: "BOGUS" as ViewType }))).code).toBe(
      "INVALID_PARAMETER_VALUE",
    );
    expect((await rejection(() => searchRuns(knex, { ...base, experimentIds: [1.5] }))).code).toBe(
      "INVALID_PARAMETER_VALUE",
    );
  });

  it("rejects tampered, foreign and malformed page tokens", async () => {
    const base = { experimentIds: [1], viewType: "ACTIVE_ONLY" as ViewType, maxResults: 1 };
    const first = await searchRuns(knex, base);
    const token = first.nextPageToken;
    expect(token).toBeDefined();
    if (!token) return;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const payload = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      v: number;
      q: string;
      k: string[];
    };
    const encode = (value: unknown) =>
      Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
    const bad = [
      "not base64!",
      `${token}=`,
      `${token}==`,
      `${token.slice(0, -1)}`,
      encode("not json"),
      encode([1, 2]),
      encode(null),
      encode({ ...payload, v: 2 }),
      encode({ ...payload, q: "AAAAAAAAAAAAAAAA" }),
      encode({ ...payload, k: payload.k.slice(1) }),
      encode({ ...payload, k: ["abc", payload.k[1]] }),
      encode({ ...payload, k: ["99999999999999999999", payload.k[1]] }),
      encode({ ...payload, k: [payload.k[0], "x\u0000"] }),
      encode({ ...payload, k: [1, payload.k[1]] }),
      encode({ offset: 1 }),
      Buffer.from(JSON.stringify({ offset: 1 })).toString("base64"),
    ];
    for (const pageToken of bad) {
      const error = await rejection(() => searchRuns(knex, { ...base, pageToken }));
      expect(error.code).toBe("INVALID_PARAMETER_VALUE");
      expect(error.message).toBe("Invalid page token");
    }
  });

  it("accepts an empty page token as the first page", async () => {
    const result = await searchRuns(knex, {
      experimentIds: [1],
      viewType: "ACTIVE_ONLY",
      maxResults: 100,
      pageToken: "",
    });
    expect(result.runIds).toHaveLength(4);
  });

  it("binds a page token to its query", async () => {
    const base: RunSearchOptions = {
      experimentIds: [1],
      viewType: "ACTIVE_ONLY",
      maxResults: 1,
      filter: parseRunFilter("params.lr = '0.1'"),
    };
    const first = await searchRuns(knex, base);
    const pageToken = first.nextPageToken;
    expect(pageToken).toBeDefined();
    // The same query (even with another page size or a differently spelled filter) continues.
    const next = await searchRuns(knex, {
      ...base,
      maxResults: 5,
      filter: parseRunFilter('params.`lr`   =   "0.1"'),
      pageToken,
    });
    expect(next.runIds.map((id) => NAMES.get(id))).toEqual(["alpha"]);
    const others: RunSearchOptions[] = [
      { ...base, filter: parseRunFilter("params.lr = '0.01'") },
      { ...base, filter: undefined },
      { ...base, orderBy: ["start_time DESC"] },
      { ...base, viewType: "ALL" },
      { ...base, experimentIds: [1, 2] },
    ];
    for (const other of others) {
      const error = await rejection(() => searchRuns(knex, { ...other, pageToken }));
      expect(error.message).toBe("Invalid page token");
    }
  });

  it("searches with revision A/B anded_expressions through the same engine", async () => {
    const run = async (expressions: unknown) =>
      (
        await searchRuns(knex, {
          experimentIds: [1],
          viewType: "ACTIVE_ONLY",
          maxResults: 100,
          filter: andedExpressionsToFilter(expressions),
        })
      ).runIds.map((id) => NAMES.get(id));
    expect(await run([{ metric: { key: "acc", double: { comparator: ">=", value: 0.9 } } }])).toEqual([
      "gamma",
      "alpha",
    ]);
    expect(await run([{ metric: { key: "acc", float: { comparator: "==", value: 0.7 } } }])).toEqual(["beta"]);
    expect(await run([{ metric: { key: "acc", float: { comparator: "!=", value: "0.9" } } }])).toEqual(["beta"]);
    expect(await run([{ metric: { key: "loss", double: { comparator: "<", value: "Infinity" } } }])).toEqual([
      "delta",
      "alpha",
    ]);
    expect(await run([{ parameter: { key: "model", string: { comparator: "~", value: "NN" } } }])).toEqual(["alpha"]);
    expect(await run([{ parameter: { key: "model", string: { comparator: "!=", value: "CNN" } } }])).toEqual(["beta"]);
    expect(await run([{ parameter: { key: "pct", string: { comparator: "~", value: "%_" } } }])).toEqual(["alpha"]);
    expect(await run([{ parameter: { key: "pct", string: { comparator: "~", value: "_off" } } }])).toEqual([
      "beta",
      "alpha",
    ]);
    expect(await run([{ parameter: { key: "pct", string: { comparator: "~", value: "0%" } } }])).toEqual(["alpha"]);
    expect(await run([{ parameter: { key: "pct", string: { comparator: "~", value: "\\" } } }])).toEqual(["alpha"]);
    expect(await run([{ parameter: { key: "pct", string: { comparator: "~", value: "" } } }])).toEqual([
      "beta",
      "alpha",
    ]);
    expect(
      await run([
        { parameter: { key: "lr", string: { comparator: "==", value: "0.1" } } },
        { metric: { key: "acc", double: { comparator: ">", value: 0 } } },
      ]),
    ).toEqual(["gamma", "alpha"]);
    expect(await run([])).toEqual(["gamma", "delta", "beta", "alpha"]);
    expect(
      await run([{ parameter: { key: "x' OR '1'='1", string: { comparator: "==", value: "' OR 1=1 --" } } }]),
    ).toEqual([]);
  });
});

describe.each(testDatabases())("searchRuns paging on %s", (kind) => {
  const suite = useTestServer(kind);
  let knex: Knex;
  const COUNT = 2500;
  const runs: RunFixture[] = [];

  beforeAll(async () => {
    knex = suite.server.database.knex;
    await insertExperiment(knex, 3, "paging");
    await insertExperiment(knex, 4, "concurrent");
    for (let i = 0; i < COUNT; i++) {
      const metrics: Record<string, number> = {};
      if (i % 11 !== 0) metrics.m = i % 13 === 0 ? NaN : (i % 7) / 2;
      const params: Record<string, string> = {};
      if (i % 9 !== 0) params.p = `p${i % 5}`;
      runs.push({
        // ids in an order unrelated to insertion order and start time
        id: rid(((i + 1) * 7919) % 100_003),
        experimentId: 3,
        name: `run-${i}`,
        start: 1_000_000 + (i % 400) * 10,
        metrics,
        params,
      });
    }
    await insertRuns(knex, runs);
  });

  const byDefault = (x: RunFixture, y: RunFixture) => y.start - x.start || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  const metricRank = (r: RunFixture) => (r.metrics?.m === undefined ? 2 : Number.isNaN(r.metrics.m) ? 1 : 0);
  const paramRank = (r: RunFixture) => (r.params?.p === undefined ? 1 : 0);

  async function collect(options: Omit<RunSearchOptions, "pageToken">): Promise<{ ids: string[]; sizes: number[] }> {
    const ids: string[] = [];
    const sizes: number[] = [];
    let pageToken: string | undefined;
    do {
      const page = await searchRuns(knex, { ...options, pageToken });
      ids.push(...page.runIds);
      sizes.push(page.runIds.length);
      pageToken = page.nextPageToken;
      if (sizes.length > 100) throw new Error("too many pages");
    } while (pageToken);
    return { ids, sizes };
  }

  it("pages through 2,500 runs 1,000 at a time in the default order, each run exactly once", async () => {
    const { ids, sizes } = await collect({ experimentIds: [3], viewType: "ACTIVE_ONLY", maxResults: 1000 });
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(new Set(ids).size).toBe(COUNT);
    expect(ids).toEqual([...runs].sort(byDefault).map((r) => r.id));
  });

  it("pages through 2,500 runs ordered by a metric with ties, NaN and missing values", async () => {
    const expected = [...runs]
      .sort((x, y) => {
        const rank = metricRank(x) - metricRank(y);
        if (rank !== 0) return rank;
        if (metricRank(x) === 0) {
          const diff = (y.metrics?.m ?? 0) - (x.metrics?.m ?? 0);
          if (diff !== 0) return diff;
        }
        return byDefault(x, y);
      })
      .map((r) => r.id);
    const { ids, sizes } = await collect({
      experimentIds: [3],
      viewType: "ACTIVE_ONLY",
      maxResults: 1000,
      orderBy: ["metrics.m DESC"],
    });
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(ids).toEqual(expected);
  });

  it("pages through 2,500 runs ordered by a param ascending, missing last", async () => {
    const expected = [...runs]
      .sort((x, y) => {
        const rank = paramRank(x) - paramRank(y);
        if (rank !== 0) return rank;
        const px = x.params?.p ?? "";
        const py = y.params?.p ?? "";
        if (px !== py) return px < py ? -1 : 1;
        return byDefault(x, y);
      })
      .map((r) => r.id);
    const { ids } = await collect({
      experimentIds: [3],
      viewType: "ACTIVE_ONLY",
      maxResults: 1000,
      orderBy: ["params.p"],
    });
    expect(ids).toEqual(expected);
  });

  it("pages through a filtered search", async () => {
    const expected = runs
      .filter((r) => r.metrics?.m !== undefined && r.metrics.m > 1)
      .sort(byDefault)
      .map((r) => r.id);
    const { ids, sizes } = await collect({
      experimentIds: [3],
      viewType: "ACTIVE_ONLY",
      maxResults: 300,
      filter: parseRunFilter("metrics.m > 1"),
    });
    expect(ids).toEqual(expected);
    expect(sizes.slice(0, -1).every((n) => n === 300)).toBe(true);
  });

  it("keeps pages stable under concurrent inserts", async () => {
    const base: RunFixture[] = Array.from({ length: 50 }, (_, i) => ({
      id: rid(500_000 + i),
      experimentId: 4,
      name: `c${i}`,
      start: 10_000 + i * 10,
    }));
    await insertRuns(knex, base);
    const options = { experimentIds: [4], viewType: "ACTIVE_ONLY" as ViewType, maxResults: 10 };
    const first = await searchRuns(knex, options);
    expect(first.runIds).toEqual(
      [...base]
        .sort(byDefault)
        .slice(0, 10)
        .map((r) => r.id),
    );
    // Inserted before the cursor: never shown. Inserted after it: shown once, in place.
    const early: RunFixture = { id: rid(600_000), experimentId: 4, name: "early", start: 99_999 };
    const late: RunFixture = { id: rid(600_001), experimentId: 4, name: "late", start: 10_005 };
    await insertRuns(knex, [early, late]);
    const ids = [...first.runIds];
    let pageToken = first.nextPageToken;
    while (pageToken) {
      const page = await searchRuns(knex, { ...options, pageToken });
      ids.push(...page.runIds);
      pageToken = page.nextPageToken;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...base, late].sort(byDefault).map((r) => r.id));
  });
});
