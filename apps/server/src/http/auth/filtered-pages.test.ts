import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

/**
 * Listings with users and permissions on answer full pages of what the user may read: a page short
 * after filtering is refilled from the following rows, and its next_page_token continues right after
 * its last item (issue 29: "filtered listings return short pages").
 */

const ADMIN = { username: "admin", password: "admin-password-1234" };
const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
});

describe.each(testDatabases())("filtered listings keep their page size on %s", (kind) => {
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN, authDefaultPermission: "NO_PERMISSIONS" });
  const as = (headers: Record<string, string>) => ({
    post: <T = Record<string, unknown>>(op: string, body: Record<string, unknown>) =>
      call<T>(suite.url, "POST", `/api/2.0/mlflow/${op}`, body, headers),
    get: <T = Record<string, unknown>>(op: string, query: Record<string, unknown>) =>
      call<T>(suite.url, "GET", `/api/2.0/mlflow/${op}`, query, headers),
  });
  const admin = as(basic(ADMIN.username, ADMIN.password));
  const reader = as(basic("reader", "reader-password-1"));

  /** Every page of a listing, as the user reads it: the items of each page. */
  async function pages<T>(
    read: (pageToken?: string) => Promise<{ status: number; body: Record<string, unknown> }>,
    list: string,
    key: (item: T) => string,
  ): Promise<string[][]> {
    const seen: string[][] = [];
    let token: string | undefined;
    do {
      const res = await read(token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(((res.body[list] as T[] | undefined) ?? []).map(key));
      token = res.body.next_page_token as string | undefined;
    } while (token && seen.length < 20);
    return seen;
  }

  // Some sixty requests: the budget of a scenario, as the contract tests give theirs.
  it("experiments, registered models, model versions and runs across experiments", { timeout: 300_000 }, async () => {
    expect((await admin.post("users/create", { username: "reader", password: "reader-password-1" })).status).toBe(200);
    const experiments: string[] = [];
    const runs: Record<string, string> = {};
    for (let i = 1; i <= 6; i++) {
      const id = (await admin.post<{ experiment_id: string }>("experiments/create", { name: `page-e${i}` })).body
        .experiment_id;
      experiments.push(id);
      runs[id] = (
        await admin.post<{ run: { info: { run_id: string } } }>("runs/create", {
          experiment_id: id,
          start_time: 1000 + i,
        })
      ).body.run.info.run_id;
      await admin.post("registered-models/create", { name: `page-m${i}` });
      await admin.post("model-versions/create", { name: `page-m${i}`, source: `mlflow-artifacts:/${id}/m` });
      if (i % 2 === 0) {
        await admin.post("experiments/permissions/create", {
          experiment_id: id,
          username: "reader",
          permission: "READ",
        });
        await admin.post("registered-models/permissions/create", {
          name: `page-m${i}`,
          username: "reader",
          permission: "READ",
        });
      }
    }

    // experiments/search, newest first: e6, e4 | e2.
    expect(
      await pages<{ name: string }>(
        (page_token) =>
          reader.post("experiments/search", {
            max_results: 2,
            filter: "name LIKE 'page-%'",
            ...(page_token && { page_token }),
          }),
        "experiments",
        (e) => e.name,
      ),
    ).toEqual([["page-e6", "page-e4"], ["page-e2"]]);
    // The default page size refills too (Default, not readable, is left out).
    const all = await reader.post<{ experiments: unknown[] }>("experiments/search", {});
    expect(all.body.experiments).toHaveLength(3);

    // registered-models/search, by name: m2, m4 | m6.
    expect(
      await pages<{ name: string }>(
        (page_token) =>
          reader.get("registered-models/search", {
            max_results: 2,
            filter: "name LIKE 'page-%'",
            ...(page_token && { page_token }),
          }),
        "registered_models",
        (m) => m.name,
      ),
    ).toEqual([["page-m2", "page-m4"], ["page-m6"]]);

    // model-versions/search (every version of this server; name takes = only): one readable version per page.
    const versions = await pages<{ name: string }>(
      (page_token) =>
        reader.get("model-versions/search", {
          max_results: 1,

          ...(page_token && { page_token }),
        }),
      "model_versions",
      (v) => v.name,
    );
    expect(versions.flat().sort()).toEqual(["page-m2", "page-m4", "page-m6"]);
    expect(versions.filter((page) => page.length === 1)).toHaveLength(3);

    // runs/search over every experiment: only the readable ones are searched, so pages stay full.
    expect(
      await pages<{ info: { run_id: string } }>(
        (page_token) =>
          reader.post("runs/search", {
            experiment_ids: experiments,
            max_results: 2,
            ...(page_token && { page_token }),
          }),
        "runs",
        (r) => r.info.run_id,
      ),
    ).toEqual([[runs[experiments[5]!], runs[experiments[3]!]], [runs[experiments[1]!]]]);

    // An admin still sees everything, in the same pages as without auth.
    const adminPages = await pages<{ name: string }>(
      (page_token) =>
        admin.post("experiments/search", {
          max_results: 4,
          filter: "name LIKE 'page-%'",
          ...(page_token && { page_token }),
        }),
      "experiments",
      (e) => e.name,
    );
    expect(adminPages).toEqual([
      ["page-e6", "page-e5", "page-e4", "page-e3"],
      ["page-e2", "page-e1"],
    ]);
  });
});
