import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tracker/testing";

describe("the API reference at /docs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("serves an index and one page per revision", async () => {
    const index = await fetch(`${server.url}/docs/`);
    expect(index.status).toBe(200);
    for (const rev of ["rev-a", "rev-b", "rev-c"]) {
      const page = await fetch(`${server.url}/docs/${rev}`);
      expect(page.status, rev).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/<html/i);
    }
    const missing = await fetch(`${server.url}/docs/nope`);
    expect(missing.status).toBe(404);
  });
});
