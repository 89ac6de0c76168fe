import { describe, expect, it } from "vitest";
import { readList, type SearchState } from "../../../url/search-state";
import { extraRunKeys, readTab, union } from "./view-state";

function stateOf(search: string): SearchState {
  const params = new URLSearchParams(search);
  return {
    params,
    get: (key) => params.get(key) ?? undefined,
    list: (key) => readList(params, key),
    flag: (key) => params.get(key) === "1",
    set: () => {},
  };
}

describe("runs page view state", () => {
  it("reads the tab, the table by default", () => {
    expect(readTab(stateOf("tab=charts"))).toBe("charts");
    expect(readTab(stateOf("tab=other"))).toBe("table");
    expect(readTab(stateOf(""))).toBe("table");
  });
  it("asks for the grouping's key, and in the charts view for the latest values the cards read", () => {
    expect(extraRunKeys(stateOf("group=tags.team"))).toEqual({ metrics: [], params: [], tags: ["team"] });
    // Cards of the URL count only in the charts view.
    expect(extraRunKeys(stateOf("group=params.model&cards=bar:metrics.acc"))).toEqual({
      metrics: [],
      params: ["model"],
      tags: [],
    });
    expect(
      extraRunKeys(stateOf("tab=charts&group=params.model&cards=line:metrics.loss,scatter:params.lr:metrics.acc")),
    ).toEqual({ metrics: ["acc"], params: ["lr", "model"], tags: [] });
    expect(extraRunKeys(stateOf("group=dataset"))).toEqual({ metrics: [], params: [], tags: [] });
  });
  it("joins key lists without repeats", () => {
    expect(union(["a", "b"], ["b", "c"])).toEqual(["a", "b", "c"]);
  });
});
