import { describe, expectTypeOf, it } from "vitest";
import type { components as A, paths as PathsA } from "./generated/rev-a.js";
import type { components as B } from "./generated/rev-b.js";
import type { components as C, paths as PathsC } from "./generated/rev-c.js";

/** Type-level tests: the generated types say what the specs say, and reject what they forbid. */
describe("generated types", () => {
  it("types experiment_id as a number in A and B and a string in C", () => {
    expectTypeOf<A["schemas"]["Experiment"]["experiment_id"]>().toEqualTypeOf<number>();
    expectTypeOf<B["schemas"]["Experiment"]["experiment_id"]>().toEqualTypeOf<number>();
    expectTypeOf<C["schemas"]["Experiment"]["experiment_id"]>().toEqualTypeOf<string>();
  });

  it("requires name on experiments/create", () => {
    type Body = NonNullable<
      PathsC["/2.0/tracker/experiments/create"]["post"]["requestBody"]
    >["content"]["application/json"];
    expectTypeOf<{ name: string }>().toMatchTypeOf<Body>();
    // @ts-expect-error name is required
    const missing: Body = { artifact_location: "/x" };
    void missing;
  });

  it("has run_id and deprecated run_uuid in C's RunInfo, and tags in A's RunInfo", () => {
    expectTypeOf<C["schemas"]["RunInfo"]>().toHaveProperty("run_id");
    expectTypeOf<C["schemas"]["RunInfo"]>().toHaveProperty("run_uuid");
    expectTypeOf<A["schemas"]["RunInfo"]>().toHaveProperty("tags");
  });

  it("has no registry paths in revision A", () => {
    expectTypeOf<PathsA>().not.toHaveProperty("/2.0/preview/tracker/registered-models/create");
    expectTypeOf<PathsC>().toHaveProperty("/2.0/preview/tracker/registered-models/create");
  });
});
