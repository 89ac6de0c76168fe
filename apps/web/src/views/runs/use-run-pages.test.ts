import { describe, expect, it } from "vitest";
import { fakeRun } from "./columns.test";
import { mergeFirstPage } from "./use-run-pages";

describe("live refresh merge", () => {
  it("puts the fresh first page on top and keeps every other row once, in order", () => {
    const ids = (runs: { info: { run_id: string } }[]) => runs.map((r) => r.info.run_id);
    const before = ["a", "b", "c", "d", "e"].map((id) => fakeRun(id));
    expect(ids(mergeFirstPage(before, ["new", "a"].map((id) => fakeRun(id))))).toEqual(["new", "a", "b", "c", "d", "e"]);
    expect(ids(mergeFirstPage(before, ["a", "b"].map((id) => fakeRun(id))))).toEqual(["a", "b", "c", "d", "e"]);
    expect(ids(mergeFirstPage([], [fakeRun("x")]))).toEqual(["x"]);
  });
});
