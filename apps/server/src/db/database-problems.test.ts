import { describe, expect, it } from "vitest";
import { databaseProblemOf } from "./database-problems.js";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });
const knexTimeout = (cause?: Error) =>
  Object.assign(new Error("Knex: Timeout acquiring a connection. The pool is probably full."), {
    name: "KnexTimeoutError",
    cause,
  });

describe("databaseProblemOf", () => {
  it.each([
    [
      "a statement ended by statement_timeout",
      withCode("57014", "canceling statement due to statement timeout"),
      "statement timeout",
    ],
    ["a pool with no free connection", knexTimeout(), "pool-acquire timeout"],
    [
      "a pool timeout while connecting failed",
      knexTimeout(new Error("connect ECONNREFUSED 127.0.0.1:1")),
      "unreachable",
    ],
    ["a statement with no answer (pg query_timeout)", new Error("Query read timeout"), "no answer"],
    [
      "a statement run by knex with no answer (knex prefixes the SQL)",
      new Error("SELECT e.*\n FROM experiments e WHERE e.experiment_id IN ($1) - Query read timeout"),
      "no answer",
    ],
    ["a refused connection", withCode("ECONNREFUSED"), "unreachable"],
    [
      "a restarting embedded server's missing socket",
      new Error("connect ENOENT /x/postgres-socket/.s.PGSQL.5432"),
      "unreachable",
    ],
    ["a server shutting down", withCode("57P01", "terminating connection due to administrator command"), "unreachable"],
    ["a connect timeout", new Error("timeout exceeded when trying to connect"), "unreachable"],
  ])("names %s", (_what, err, kind) => {
    expect(databaseProblemOf(err)?.kind).toBe(kind);
    expect(databaseProblemOf(err)?.message).toMatch(/retry later$/);
  });

  it.each([
    ["a unique violation", withCode("23505")],
    ["a data exception", withCode("22P02")],
    ["a file not found", withCode("ENOENT", "ENOENT: no such file or directory, open '/x'")],
    ["a plain bug", new TypeError("x is undefined")],
    ["a message that only mentions the timeout", new Error("Query read timeout was set too low")],
    ["no error at all", undefined],
  ])("leaves %s alone", (_what, err) => {
    expect(databaseProblemOf(err)).toBeUndefined();
  });
});
