// Type-level tests: the raw clients take their paths, parameters and bodies from the generated types,
// and the ergonomic layer's results have the documented types.
import { describe, expectTypeOf, it } from "vitest";
import { TrackerClient } from "./client.js";
import type { Experiment, Metric, ModelVersion, Run } from "./entities.js";
import type { Paginated } from "./pagination.js";
import { createClient, type RawClient } from "./raw.js";
import { createClient as createRevA } from "./rev-a.js";

declare const baseUrl: string;

describe("createClient", () => {
  it("defaults to revision C and picks the revision's paths", () => {
    expectTypeOf(createClient({ baseUrl })).toEqualTypeOf<RawClient<"c">>();
    expectTypeOf(createClient({ baseUrl, revision: "a" })).toEqualTypeOf<RawClient<"a">>();
    expectTypeOf(createRevA({ baseUrl })).toEqualTypeOf<RawClient<"a">>();
  });

  it("rejects paths and fields the revision does not have", () => {
    const c = createClient({ baseUrl, revision: "c" });
    const a = createClient({ baseUrl, revision: "a" });
    // @ts-expect-error revision A has no registry
    void a.POST("/2.0/preview/tracker/registered-models/create", { body: { name: "m" } });
    // @ts-expect-error revision C serves tracking under 2.0/tracker, not the preview prefix
    void c.POST("/2.0/preview/tracker/experiments/create", { body: { name: "x" } });
    // @ts-expect-error experiments/create needs a name
    void c.POST("/2.0/tracker/experiments/create", { body: {} });
    // @ts-expect-error experiment ids are strings in revision C
    void c.GET("/2.0/tracker/experiments/get", { params: { query: { experiment_id: 1 } } });
    // @ts-expect-error experiment ids are numbers in revision A
    void a.GET("/2.0/preview/tracker/experiments/get", { params: { query: { experiment_id: "1" } } });
  });

  it("types the answers", async () => {
    const c = createClient({ baseUrl });
    const { data } = await c.POST("/2.0/tracker/experiments/create", { body: { name: "x" } });
    expectTypeOf(data).toEqualTypeOf<{ experiment_id: string } | undefined>();
    const a = createClient({ baseUrl, revision: "a" });
    const created = await a.POST("/2.0/preview/tracker/experiments/create", { body: { name: "x" } });
    expectTypeOf(created.data).toEqualTypeOf<{ experiment_id: number } | undefined>();
  });
});

describe("TrackerClient", () => {
  const client = new TrackerClient({ baseUrl });

  it("returns entities with numeric metric values and paginated searches", () => {
    expectTypeOf(client.getRun("r")).resolves.toEqualTypeOf<Run>();
    expectTypeOf<Metric["value"]>().toEqualTypeOf<number>();
    expectTypeOf(client.searchRuns("0")).toEqualTypeOf<Paginated<Run>>();
    expectTypeOf(client.searchExperiments()).toEqualTypeOf<Paginated<Experiment>>();
    expectTypeOf(client.searchModelVersions()).toEqualTypeOf<Paginated<ModelVersion>>();
    expectTypeOf(client.getModelVersionDownloadUri("m", 1)).resolves.toEqualTypeOf<string>();
  });

  it("checks arguments", () => {
    // @ts-expect-error metric values are numbers
    void client.logMetric("r", "k", "0.5");
    // @ts-expect-error not a stage
    void client.transitionModelVersionStage("m", 1, "Prod");
    // @ts-expect-error not a run status
    void client.updateRun("r", { status: "DONE" });
  });
});
