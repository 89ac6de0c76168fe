import { describe, expect, it } from "vitest";
import { groupSessions, parseParameters, parseStatements, substitute } from "./capture.js";
import { percentile } from "./load.js";

describe("statement capture", () => {
  it("parses logged parameters, quotes and NULL included", () => {
    expect(parseParameters("$1 = 'a''b', $2 = NULL, $3 = '', $4 = 'x, $5 = y'")).toEqual([
      "a'b",
      null,
      "",
      "x, $5 = y",
    ]);
    expect(() => parseParameters("$2 = 'a'")).toThrow(/out of order/);
  });

  it("reads execute and simple statements per backend, multi-line text included", () => {
    const log = [
      "2026-11-22 05:06:36.032 UTC [11] LOG:  statement: BEGIN;",
      "2026-11-22 05:06:36.033 UTC [11] LOG:  execute <unnamed>: select *",
      "\t from runs where run_uuid = $1",
      "2026-11-22 05:06:36.033 UTC [11] DETAIL:  parameters: $1 = 'abc'",
      "2026-11-22 05:06:36.034 UTC [12] LOG:  execute <unnamed>: select 1",
      "2026-11-22 05:06:36.035 UTC [99] LOG:  statement: SELECT pg_reload_conf()",
      "2026-11-22 05:06:36.036 UTC [11] LOG:  statement: COMMIT;",
      "2026-11-22 05:06:36.037 UTC [13] LOG:  received SIGHUP, reloading configuration files",
      "",
    ].join("\n");
    const request = groupSessions(parseStatements(log, [99]));
    expect(request.sessions).toEqual([
      [
        { pid: 11, sql: "BEGIN;" },
        { pid: 11, sql: "select *\n\t from runs where run_uuid = $1", params: ["abc"] },
        { pid: 11, sql: "COMMIT;" },
      ],
      [{ pid: 12, sql: "select 1", params: [] }],
    ]);
    const swapped = substitute(request, [["abc", "xyz"]]);
    expect(swapped.sessions[0][1].params).toEqual(["xyz"]);
    expect(request.sessions[0][1].params).toEqual(["abc"]);
  });

  it("takes nearest-rank percentiles", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([5], 99)).toBe(5);
  });
});
