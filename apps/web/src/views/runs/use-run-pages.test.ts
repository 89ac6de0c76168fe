import { describe, expect, it } from "vitest";
import { fakeRun } from "./columns.test";
import { appendPage, mergeFirstPage } from "./use-run-pages";

describe("live refresh merge", () => {
  it("puts the fresh first page on top and keeps every other row once, in order", () => {
    const ids = (runs: { info: { run_id: string } }[]) => runs.map((r) => r.info.run_id);
    const before = ["a", "b", "c", "d", "e"].map((id) => fakeRun(id));
    expect(
      ids(
        mergeFirstPage(
          before,
          ["new", "a"].map((id) => fakeRun(id)),
        ),
      ),
    ).toEqual(["new", "a", "b", "c", "d", "e"]);
    expect(
      ids(
        mergeFirstPage(
          before,
          ["a", "b"].map((id) => fakeRun(id)),
        ),
      ),
    ).toEqual(["a", "b", "c", "d", "e"]);
    expect(ids(mergeFirstPage([], [fakeRun("x")]))).toEqual(["x"]);
  });
});

describe("paging", () => {
  it("appends a further page without the runs already on screen (a live refresh may have brought them)", () => {
    const ids = (runs: { info: { run_id: string } }[]) => runs.map((r) => r.info.run_id);
    const onScreen = ["a", "b", "c"].map((id) => fakeRun(id));
    expect(
      ids(
        appendPage(
          onScreen,
          ["a", "b", "c"].map((id) => fakeRun(id)),
        ),
      ),
    ).toEqual(["a", "b", "c"]);
    expect(
      ids(
        appendPage(
          onScreen,
          ["c", "d"].map((id) => fakeRun(id)),
        ),
      ),
    ).toEqual(["a", "b", "c", "d"]);
    expect(
      ids(
        appendPage(
          [],
          ["x", "y"].map((id) => fakeRun(id)),
        ),
      ),
    ).toEqual(["x", "y"]);
  });
});
